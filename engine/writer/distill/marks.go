package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Shapes round eleven read in Vietnamese that are not Vietnamese's alone:
// a Latin-script language no stop list covers but whose words carry
// marks English never writes, money with a magnitude after its digits
// ("12tr5", "850k", "5 lakh"), and a month or a weekday written as a word
// and a number ("tháng 9", "thứ 6").

// denseMarks reports whether most words of s carry a Latin letter outside
// ASCII ("tụi em thuê nhà ở Cái Răng"): English borrows "café" or a name
// now and then, French or Portuguese mark a word in four or five; a turn
// where half of its words are marked is in a language that marks nearly
// every syllable, and no stop list reads it.
func denseMarks(s string) bool { return markShare(s, 1, 2) }

// veryDense reports whether two words in three of s are marked: then one
// stray stop word of another language (Portuguese "em", Vietnamese's
// "younger sibling") does not make the evidence weak (unreadTurn).
func veryDense(s string) bool { return markShare(s, 2, 3) }

// markShare reports whether at least num/den of the words of s (three at
// least) carry a Latin letter outside ASCII.
func markShare(s string, num, den int) bool {
	words, marked := 0, 0
	for w := range strings.FieldsSeq(s) {
		letters, mark := 0, false
		for _, r := range w {
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			if r >= 0x80 && unicode.Is(unicode.Latin, r) {
				mark = true
			}
		}
		if letters == 0 {
			continue
		}
		words++
		if mark {
			marked++
		}
	}
	return marked >= 3 && marked*den >= words*num
}

// magnitudes are the words and endings that multiply a number in chat's
// money: "850k", "12tr5" (12.5 million đồng), "3 triệu", "5 lakh", "2cr".
var magnitudes = map[string]bool{"k": true, "tr": true, "triệu": true, "ty": true, "tỷ": true, "tỉ": true,
	"lakh": true, "lakhs": true, "lac": true, "cr": true, "crore": true, "crores": true, "đ": true, "vnd": true}

// moneyShorthand reports whether word (a token, trimmed) is an amount
// with its magnitude or its currency after the digits ("850k", "12tr5",
// "2.800.000đ", "300₹"), or whether next, the word after a bare number,
// is a magnitude ("3 triệu", "5 lakh"). A price is a fact's shape.
func moneyShorthand(word, next string) bool {
	i := strings.IndexFunc(word, func(r rune) bool { return !unicode.IsDigit(r) && r != '.' && r != ',' })
	if i <= 0 {
		return i < 0 && magnitudes[strings.ToLower(strings.Trim(next, ",.!?;:()"))]
	}
	rest := strings.ToLower(word[i:])
	if r, _ := utf8.DecodeRuneInString(rest); unicode.Is(unicode.Sc, r) && len(rest) == utf8.RuneLen(r) {
		return true
	}
	// "12tr5": the magnitude, then the next digit ("tr5" is 12.5 million).
	unit := strings.TrimRightFunc(rest, unicode.IsDigit)
	return magnitudes[unit] && len(rest)-len(unit) <= 3
}

// wordDates are the words a month's or a day's number follows in a
// language that names them so ("tháng 9", "ngày 08", "mùng 5": month,
// day, the lunar month's first ten days); "thứ" before a digit or a
// weekday's number word is a weekday ("thứ 6", "thứ Hai"), counted, as
// every weekday, only next to a day's number.
var wordDates = map[string]bool{"tháng": true, "ngày": true, "mùng": true, "mồng": true}

// wordWeekday reports whether fields[k:] open a weekday of two words,
// "thứ Ba" or "Chủ nhật", and returns how many words it takes.
func wordWeekday(fields []string, k int) int {
	if k+1 >= len(fields) {
		return 0
	}
	a := strings.ToLower(fields[k])
	b := strings.ToLower(strings.Trim(fields[k+1], ",.!?;:()"))
	switch {
	case a == "thứ" && (vnWeekdayNumbers[b] || len(b) == 1 && b[0] >= '2' && b[0] <= '7'):
		return 2
	case a == "chủ" && b == "nhật":
		return 2
	}
	return 0
}

var vnWeekdayNumbers = map[string]bool{"hai": true, "ba": true, "tư": true, "năm": true, "sáu": true, "bảy": true}

// askingWords close a yes-or-no question in a language that asks with a
// word, not a mark ("ai đi Big Day tháng 10 không", "bố mẹ biết chưa"):
// chat types no "?" after them.
var askingWords = map[string]bool{"không": true, "hông": true, "ko": true, "chưa": true, "hả": true, "nhỉ": true}

// asksByWord reports whether a sentence ends in an asking word.
func asksByWord(s string) bool { return askingWords[lastWord(s)] }

// callsOut reports whether a sentence closes by calling someone ("Bin
// bơi được 5 mét rồi em ơi": … you hear): a word to a person in the
// room, which needs a third signal to be kept, as a guess does.
func callsOut(s string) bool { return lastWord(s) == "ơi" }

// lastWord is a sentence's last word with a letter, lower case, from the
// third word on.
func lastWord(s string) string {
	fields := strings.Fields(s)
	// The last word with a letter: a quote's mark or an emoji may follow
	// ("Bin nói \"ba đi làm xe Grab hả\" 😂").
	for k := len(fields) - 1; k >= 2; k-- {
		w := strings.TrimFunc(fields[k], func(r rune) bool { return !unicode.IsLetter(r) })
		if w != "" {
			return strings.ToLower(w)
		}
	}
	return ""
}

// spanUnits are the words that make the number before them a length of
// time, not a date or an amount ("trễ 1 ngày", "100 loài trong 8 tháng"):
// a day's or a month's number comes after its word ("ngày 8", "tháng 9").
// Not "năm" (year): "gia hạn visa thêm 3 năm" is news.
var spanUnits = map[string]bool{"ngày": true, "tháng": true, "tuần": true, "tiếng": true, "phút": true}

// hourRange reports whether word is a span of hours ("8h–22h", "9h-17h",
// "08:00–22:00"): opening hours and a rule's window are a fact's shape.
func hourRange(word string) bool {
	a, b, ok := strings.Cut(strings.ReplaceAll(word, "–", "-"), "-")
	return ok && hourLike(a) && hourLike(b)
}

func hourLike(s string) bool {
	h, m, _ := strings.Cut(strings.ReplaceAll(s, "h", ":"), ":")
	return len(h) >= 1 && len(h) <= 2 && strings.Trim(h, "0123456789") == "" && strings.Trim(m, "0123456789") == "" && len(m) <= 2 && s != h
}

// vocative reports whether fields[k], a name, closes its sentence in a
// short clause after a comma ("100 loài trong 8 tháng, giỏi quá Trang",
// "thanks for everything, Anna"): someone spoken to, not news about them.
func vocative(fields []string, k int) bool {
	if k != len(fields)-1 {
		return false
	}
	for j := k - 1; j >= 0 && j >= k-3; j-- {
		if strings.HasSuffix(fields[j], ",") {
			return true
		}
	}
	return false
}

// hedged reports whether a sentence guesses ("…, chắc cùng một query":
// probably the same query; "hình như", "có lẽ"): a guess needs more than
// two numbers to be kept. "chắc chắn" (surely) is no guess.
func hedged(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	for k, w := range f {
		w = strings.Trim(w, ",.!…")
		next := strings.Trim(nextField(f, k), ",.!…")
		if w == "chắc" && next != "chắn" || w == "hình" && next == "như" || w == "có" && next == "lẽ" {
			return true
		}
	}
	return false
}
