package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentence is one sentence of a turn, as written (emoji and markdown
// markers removed), with what the turn around it says about it.
type sentence struct {
	text     string
	question bool // it ended with a question mark
	listItem bool // it came from a markdown list item
}

// segment is what splitting a turn's content found.
type segment struct {
	sentences []sentence
	codeRunes int // runes inside fenced code blocks and tables
	textRunes int // runes outside them
}

// split cuts content into sentences. Fenced code and markdown tables are
// counted, not split: they are tool output or the assistant's formatting,
// never a fact an owner states in a sentence.
func split(content string) segment {
	var seg segment
	inFence := false
	for _, line := range strings.Split(content, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			seg.codeRunes += utf8.RuneCountInString(line)
			continue
		}
		if inFence || strings.HasPrefix(trimmed, "|") {
			seg.codeRunes += utf8.RuneCountInString(line)
			continue
		}
		seg.textRunes += utf8.RuneCountInString(line)
		item := false
		trimmed, item = stripMarkers(trimmed)
		for _, s := range splitLine(trimmed) {
			s.listItem = item
			seg.sentences = append(seg.sentences, s)
		}
	}
	return seg
}

// stripMarkers removes a line's heading, quote and list markers.
func stripMarkers(line string) (string, bool) {
	line = strings.TrimLeft(line, "#> ")
	for _, p := range []string{"- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(line, p) {
			return strings.TrimSpace(line[len(p):]), true
		}
	}
	// "1. " … "99. " and "1) "
	i := 0
	for i < len(line) && i < 2 && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' ' {
		return strings.TrimSpace(line[i+2:]), true
	}
	return line, false
}

// abbreviations end with a period that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "dr": true, "mr": true, "mrs": true, "ms": true,
	"st": true, "no": true, "approx": true, "cf": true, "fig": true, "jr": true, "sr": true, "prof": true,
	"kl":  true,              // Norwegian and Danish "kl. 19.00", o'clock
	"dra": true, "sra": true, // Portuguese and Spanish "Dra. Helena", "Sra. Ruiz"
}

// ordinalMonths are the months Norwegian, Danish and Swedish write, in
// lower case, after an ordinal number and its period ("16. mars"), and
// the other words they write after one.
var ordinalMonths = map[string]bool{"januar": true, "februar": true, "mars": true, "april": true, "mai": true,
	"juni": true, "juli": true, "august": true, "september": true, "oktober": true, "november": true,
	"desember": true, "december": true, "januari": true, "februari": true, "maj": true, "augusti": true,
	"marts": true,
	// and the ordinal days and school years: "1. juledag", "3. trinn"
	"juledag": true, "påskedag": true, "pinsedag": true, "nyttårsdag": true, "trinn": true, "klasse": true}

// ordinalDate reports whether the period ending before (a number, as in
// "16.") and the text after it (" mars…") are an ordinal date.
func ordinalDate(before string, after []rune) bool {
	num := strings.TrimSuffix(before, ".")
	if i := strings.LastIndexAny(num, " (\"'"); i >= 0 {
		num = num[i+1:]
	}
	if num == "" || len(num) > 2 || strings.Trim(num, "0123456789") != "" {
		return false
	}
	next := strings.Fields(string(after))
	if len(next) == 0 {
		return false
	}
	w := strings.Trim(next[0], ",.!?;:)")
	if lw := strings.ToLower(w); lw != w {
		return germanMonths[w] // German capitalises its months, the Nordic languages do not
	}
	return ordinalMonths[w]
}

// germanMonths are German's months, capitalised.
var germanMonths = map[string]bool{"Januar": true, "Februar": true, "März": true, "April": true, "Mai": true,
	"Juni": true, "Juli": true, "August": true, "September": true, "Oktober": true, "November": true, "Dezember": true}

// splitLine splits one line at sentence ends: . ! ? … followed by a space,
// the CJK stops 。！？, and emoji (chat writes 😂 where prose writes a
// full stop). Emoji are dropped.
func splitLine(line string) []sentence {
	var out []sentence
	var cur strings.Builder
	flush := func(question bool) {
		text := strings.TrimSpace(cur.String())
		cur.Reset()
		if text == "" {
			return
		}
		if !question {
			question = strings.HasSuffix(strings.TrimRight(text, ".!… "), "?") || strings.HasSuffix(text, "?")
		}
		out = append(out, sentence{text: text, question: question})
	}
	rs := []rune(line)
	inCode := false // inside `backticks`: a command or path, never split
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '`' {
			inCode = !inCode
		}
		if inCode {
			cur.WriteRune(r)
			continue
		}
		switch {
		case isEmoji(r):
			// An emoji ends a sentence; runs of them and their joiners vanish.
			for i+1 < len(rs) && (isEmoji(rs[i+1]) || rs[i+1] == ' ') {
				i++
			}
			flush(false)
			continue
		case r == '。' || r == '！' || r == '？' || r == '；':
			cur.WriteRune(r)
			flush(r == '？')
			continue
		case r == '.' || r == '!' || r == '?' || r == '…':
			cur.WriteRune(r)
			// A run of marks ("?!", "...") stays together.
			for i+1 < len(rs) && strings.ContainsRune(".!?…", rs[i+1]) {
				i++
				cur.WriteRune(rs[i])
			}
			if i+1 < len(rs) && rs[i+1] != ' ' {
				continue // "./...", "3.2kg", "v1.2", "Hi!Bye"
			}
			if r == '.' && (endsWithAbbreviation(cur.String()) && !(numberSign(cur.String()) && !digitAt(rs, i+2)) || inPath(cur.String())) {
				continue // "Dr. Okafor", "No. 5"; but "Oh no. That's…" ends a sentence
			}
			if r == '.' && ordinalDate(cur.String(), rs[i+1:]) {
				continue // "16. mars", "lørdag 13. juni": a Nordic or German date, not an end
			}
			if r == '.' && (numericDate(cur.String()) || ordinalBeforeLower(cur.String(), rs[i+1:]) || germanAbbreviation(cur.String())) {
				continue // "am 28.02. ist", "am 1. märz", "z. B.": germansplit.go
			}
			flush(false)
			continue
		}
		cur.WriteRune(r)
	}
	flush(false)
	return out
}

// endsWithAbbreviation reports whether s ends with an abbreviation or an
// initial ("Ursula K.") whose period ends no sentence.
func endsWithAbbreviation(s string) bool {
	s = strings.TrimSuffix(s, ".")
	i := strings.LastIndexAny(s, " (\"'")
	word := s[i+1:]
	if utf8.RuneCountInString(word) == 1 {
		r, _ := utf8.DecodeRuneInString(word)
		// "room B." and "plan B." end a sentence: an initial follows a
		// name or an initial, not a lower-case word.
		if before := strings.Fields(s[:max(i, 0)]); len(before) > 0 {
			if p, _ := utf8.DecodeRuneInString(before[len(before)-1]); unicode.IsLower(p) {
				return false
			}
		}
		return unicode.IsUpper(r)
	}
	return abbreviations[strings.ToLower(word)]
}

// numberSign reports whether s ends with "no.", which abbreviates
// "number" only before one.
func numberSign(s string) bool {
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	return s == "no" || strings.HasSuffix(s, " no") || strings.HasSuffix(s, "(no")
}

// digitAt reports whether rs[i] is a digit.
func digitAt(rs []rune, i int) bool { return i < len(rs) && unicode.IsDigit(rs[i]) }

// inPath reports whether s ends inside a path or a command ("./...",
// "~/notes/..."): its dots end no sentence.
func inPath(s string) bool {
	i := strings.LastIndexByte(s, ' ')
	word := strings.TrimRight(s[i+1:], ".")
	return strings.ContainsAny(word, "/\\") || word == ""
}

// isEmoji reports whether r is a pictograph, a dingbat, a flag letter, a
// skin tone, a variation selector or the zero-width joiner.
func isEmoji(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF, r >= 0x2600 && r <= 0x27BF, r >= 0x2B00 && r <= 0x2BFF,
		r == 0xFE0F, r == 0x200D, r >= 0xE0020 && r <= 0xE007F, r == 0x203C, r == 0x2049:
		return true
	}
	return false
}
