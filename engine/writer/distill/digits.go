package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Digits in any script: a chat in Arabic writes "يوم ١٠/٣" and
// "٢٢٬٠٠٠", one in Hindi "१५ मार्च", a Japanese keyboard "１２月"; the
// shapes read numbers, dates and amounts in ASCII digits (their regular
// expressions' \d is ASCII's), so a sentence read by shape is scored in
// ASCII digits. The quote kept is the sentence as written.

// asciiDigits writes every decimal digit of s (unicode.Nd) as its ASCII
// digit, and the Arabic thousands and decimal separators and comma
// ("٬", "٫", "،") as ",", "." and ",". s is returned as is when it has
// none of them, which is nearly always.
func asciiDigits(s string) string {
	if !strings.ContainsFunc(s, foreignDigitMark) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r == '٬' || r == '،':
			b.WriteByte(',')
		case r == '٫':
			b.WriteByte('.')
		case unicode.IsDigit(r):
			b.WriteByte(byte('0' + digitValue(r)))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// foreignDigitMark reports whether r is a decimal digit other than
// ASCII's, or an Arabic separator.
func foreignDigitMark(r rune) bool {
	return r >= utf8.RuneSelf && (r == '٬' || r == '٫' || r == '،' || unicode.IsDigit(r))
}

// digitValue is the value of r, a decimal digit. Unicode encodes decimal
// digits only in runs of ten from zero to nine, so a digit's value is its
// distance from the start of its range in unicode.Nd, modulo ten (a range
// there may hold several scripts' runs back to back).
func digitValue(r rune) int {
	for _, rg := range unicode.Nd.R16 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if r >= rune(rg.Lo) && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return 0
}

// Arabizi, Arabic typed in Latin letters, writes the letters Latin lacks
// as digits: "5alas", "7aram", "2ahwa", "a3ido", "bta3et". Such a word is
// a word, not a number, and a sentence of them read by shape has no
// number in it ("5alas ya farida el filter da 7aram").

// arabiziWord reports whether word (trimmed) is a word of Arabizi: lower
// case letters and digits, three letters or more, and a digit between two
// letters, or one digit opening it before three letters or more that are
// no unit ("3days", "5mins", "2nd" are counts).
func arabiziWord(word string) bool {
	letters, digits := 0, 0
	var prev rune
	inside := false
	for k, r := range word {
		switch {
		case r >= 'a' && r <= 'z':
			if prev >= '0' && prev <= '9' && k > 1 {
				inside = inside || letters > 0
			}
			letters++
		case r >= '0' && r <= '9':
			digits++
		default:
			return false
		}
		prev = r
	}
	if letters < 3 || digits == 0 {
		return false
	}
	if inside {
		return true
	}
	return digits == 1 && word[0] >= '2' && word[0] <= '9' && !countUnits[word[1:]]
}

// countUnits are the words a count is written glued to: "3days", "5min",
// "2nd".
var countUnits = map[string]bool{"day": true, "days": true, "min": true, "mins": true, "hrs": true, "hour": true,
	"hours": true, "week": true, "weeks": true, "months": true, "years": true, "yrs": true, "sec": true, "secs": true,
	"kms": true, "kgs": true, "lbs": true, "mph": true, "kmh": true, "gbs": true, "mbs": true, "pcs": true, "ppl": true,
	"people": true, "times": true, "way": true, "star": true, "stars": true}
