package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// shapeScore scores a sentence of an unread turn by its shape: a date, a
// price, a month or a dated weekday 2; a number and a name 1 each, at
// most two of each. signals are its numbers, months and names, for
// takesNote.
func (d *distiller) shapeScore(i int, raw string) (int, []string) {
	score := 0
	var signals []string
	if hasSpaceless(raw) {
		// "5月30日", "128,000円": Japanese and Chinese dates and amounts,
		// then the words around them, parted from the run they are glued to.
		raw = foldWidth(raw)
		score, raw, signals = cjkShapes(raw)
	}
	speakers := d.speakerWords()
	fields := spacedFields(raw)
	numbers, names := 0, 0
	inName := false // "Porto Alegre", "Dona Marli": one name, not two
	for k, tok := range fields {
		word := strings.Trim(tok, ",.!?;:()\"'¡¿*")
		lw := apostropheForms.Replace(strings.ToLower(word))
		r, _ := utf8.DecodeRuneInString(word)
		if arabiziWord(lw) {
			r = 'a' // "5alas", "bta3et": a word with digits for letters is no number (digits.go)
		}
		name := false
		if unicode.IsDigit(r) || unreadMonth(lw) || capitalMonth(word) || d.names[nameKey(word)] {
			signals = append(signals, strings.TrimSuffix(strings.TrimSuffix(lw, ",00"), ".00")) // "R$ 30,00" is the 30 just said
		}
		switch {
		case unreadDate(word):
			score += 2 // "14/08", "6/4", "02/03/2026": day first or not, a date
		case unicode.IsDigit(r) && k > 0 && (currencySign(fields[k-1]) || letterCurrency(fields[k-1])) || gluedCurrency(word):
			score += 2 // "R$ 290,00", "€ 78", "Rp 238.450.000", "Rp1.850.000": a price is a fact's shape (amounts.go)
		case unicode.IsDigit(r) && hourRange(word):
			score += 2 // "8h–22h": a window of hours (marks.go)
		case unicode.IsDigit(r) && moneyShorthand(word, nextField(fields, k)):
			score += 2 // "850k", "12tr5", "2.800.000đ", "5 lakh" (marks.go)
		case wordWeekday(fields, k) > 0 && digitAt([]rune(nextField(fields, k+1)), 0) && !strings.HasSuffix(fields[k+1], ","):
			score += 2 // "thứ Ba 21/7", "Chủ nhật 8/11": a weekday of two words with its day
		case unicode.IsDigit(r) && (groupedAmount(word) || dayRange(word)):
			score += 2 // "22,500", "٢٢٬٠٠٠", "23–25": an amount, a span of days (amounts.go)
		case unicode.IsDigit(r) && spanUnits[strings.ToLower(strings.Trim(nextField(fields, k), ",.!?;:()"))] && word == tok:
			// "trễ 1 ngày", "trong 8 tháng": a length of time is how a
			// chat counts, not news (marks.go)
		case unicode.IsDigit(r) || unicode.IsUpper(r) && hasDigit(word) && utf8.RuneCountInString(word) <= 8:
			numbers++ // "A14", "111К": a model's or a train's code is a number too
		case unreadMonth(lw) || word == "marco" || capitalMonth(word): // "março" unaccented; "Marco" is a name
			score += 2
			if !unreadMonths[lw] && !plainMonths[lw] && !englishMonths[lw] {
				score++ // "Eylulde", "Ekim'de": a month inflected is a time in a sentence, not a word in a joke
			}
		case unreadWeekdays[lw] && k+2 < len(fields) && unreadWeekdays[apostropheForms.Replace(strings.ToLower(strings.Trim(fields[k+2], ",.!?;:")))]:
			score += 2 // "segunda a sexta", "lunes a viernes": a schedule
			signals = append(signals, lw)
		case (unreadWeekdays[lw] || unreadDay[lw] || wordDates[lw]) && k+1 < len(fields) && digitAt([]rune(fields[k+1]), 0) && !strings.HasSuffix(tok, ","):
			// "el martes 17", "no dia 10"; a bare weekday is the week's chat
			// ("se mudan al jueves"), and so is one a comma parts from the
			// number ("в середу, 17-й до неділі", "неділя, 18:10").
			score += 2
		case (d.names[nameKey(word)] || d.inflectedName(word)) && !speakers[nameKey(word)] && !d.nickname(word) && !calendarWords[nameKey(word)] && !vocative(fields, k):
			name = true // a speaker named is someone spoken to, not news about them
			if !inName {
				names++
			}
		}
		inName = name && word == strings.TrimRight(tok, "*") // a comma or a stop ends the name
	}
	if score == 0 && names == 0 && numbers > 0 && d.numbersEchoed(i, fields) {
		numbers = 0 // "13 і 14 у мене готові, 15-й наполовину": items named by numbers given before
	}
	score += min(numbers, 2) + min(names, 2)
	return score, signals
}

// inflectedName reports whether word, capitalised, is a name the session
// writes in another case: its first four letters open a name written
// inside a sentence ("Іринка вступає…" after "вітаю Ірину!", "Остапом"
// after "Остап"), as Ukrainian, Polish or Turkish decline names. A
// speaker's name in another case is someone spoken to, and is left out.
func (d *distiller) inflectedName(word string) bool {
	r, n := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(r) || strings.ToUpper(word[n:]) == word[n:] {
		return false
	}
	p, ok := namePrefix(word)
	if !ok {
		return false
	}
	if d.nameStems == nil {
		d.nameStems = map[string]bool{}
		speakers := map[string]bool{}
		for w := range d.speakerWords() {
			if sp, ok := namePrefix(w); ok {
				speakers[strings.ToLower(sp)] = true
			}
		}
		// Only a name standing alone inside a sentence: the second word of
		// "Kurban Bayramı" or "Kerem Bey" is part of a holiday's or a
		// title's name, and its first letters open common words too.
		for _, t := range d.s.Turns {
			for _, sn := range split(t.Content).sentences {
				prev := ""
				for k, w := range strings.Fields(sn.text) {
					w = nameKey(strings.Trim(w, ",.!?;:()\"'*`«»"))
					if sp, ok := namePrefix(w); ok && k > 0 && d.names[w] && !capitalised(prev) && !speakers[strings.ToLower(sp)] {
						d.nameStems[sp] = true
					}
					prev = w
				}
			}
		}
	}
	return d.nameStems[p]
}

// namePrefix is a word's first four letters, when it has five or more.
func namePrefix(w string) (string, bool) {
	k := 0
	for i := range w {
		if k == 4 {
			return w[:i], utf8.RuneCountInString(w) >= 5
		}
		k++
	}
	return "", false
}

// capitalised reports whether w opens with a capital letter.
func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// nextField is the field after k, or "".
func nextField(fields []string, k int) string {
	if k+1 < len(fields) {
		return fields[k+1]
	}
	return ""
}
