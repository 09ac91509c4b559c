package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// otherScript reports whether most of s's letters are in a script other
// than Latin and Han (Cyrillic, Greek, Armenian, Georgian…): a sentence
// the English and Latin-script rules cannot read, whatever its language,
// so it is read by shape (unread.go). Han has rules of its own.
func otherScript(s string) bool {
	latin, other := 0, 0
	for _, r := range s {
		switch {
		case r < 0x80:
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				latin++
			}
		case !unicode.IsLetter(r):
		case unicode.Is(unicode.Han, r):
			return false
		case unicode.Is(unicode.Latin, r):
			latin++
		default:
			other++
		}
	}
	return other > latin
}

// tableRow reports whether a sentence is a row of a table pasted as text
// ("saltwright | солевар | солетворець"): a row is the table's part, not
// a statement; the table's label or its result carries the fact.
func tableRow(s string) bool {
	return strings.Count(s, " | ") >= 2
}

// numbersEchoed reports whether every number of a sentence of turn i (at
// most three, each of one or two digits, an ordinal's ending allowed:
// "15-й") was listed in an earlier turn of the session, in a run of
// numbers ("claimed chapters 7, 8, 9", "overdue: 16, 17"): chapters,
// tickets or items a list or a bot gave, progress on known things rather
// than news ("розділи 7 і 8 у папці", "13 і 14 готові, 15-й наполовину").
func (d *distiller) numbersEchoed(i int, fields []string) bool {
	var nums []string
	for _, tok := range fields {
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsDigit(r) {
			continue
		}
		m := itemNumberRe.FindStringSubmatch(strings.TrimRight(tok, ",.!?;:"))
		if m == nil {
			return false // "22%", "13:00", "1 900": a value, not an item
		}
		nums = append(nums, m[1])
	}
	if len(nums) == 0 || len(nums) > 3 {
		return false
	}
	listed := map[string]bool{}
	for k := max(0, i-40); k < i; k++ {
		for _, run := range numberRunRe.FindAllString(d.s.Turns[k].Content, -1) {
			for n := range strings.SplitSeq(run, ", ") {
				listed[n] = true
			}
		}
	}
	for _, n := range nums {
		if !listed[n] {
			return false
		}
	}
	return true
}

// itemNumberRe is an item's number: "7", "15-й", "9-го".
var itemNumberRe = lazyRegexp(`^(\d{1,2})(?:-\p{L}{1,3})?$`)

// numberRunRe is a list of numbers: "7, 8, 9" in "chapters 7, 8, 9".
var numberRunRe = lazyRegexp(`\b\d{1,2}(?:, \d{1,2})+\b`)
