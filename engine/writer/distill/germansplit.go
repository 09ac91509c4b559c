package distill

import (
	"strings"
	"unicode"
)

// German (and the Nordic languages, Dutch, Polish, Czech…) write an
// ordinal as a number and a full stop: "am 1. märz", "im 3. stock", "ich
// trag mir den 12. ein", and a date as "28.02.". Written in lower case in a
// chat, neither ends a sentence; cutting there leaves "ich zieh am 1." and
// "märz um" that each say nothing.

// numericDate reports whether before ends with a day and a month written
// with their full stops, "28.02." or "5.9.": it ends no sentence, since
// what follows is the rest of the date's clause, or the next date of a
// list ("24.12. Weber, 25.12. Aydin").
func numericDate(before string) bool {
	s := strings.TrimSuffix(before, ".")
	if i := strings.LastIndexAny(s, " (\"'/–-"); i >= 0 {
		s = s[i+1:]
	}
	day, month, ok := strings.Cut(s, ".")
	return ok && shortNumber(day) && shortNumber(month)
}

// shortNumber reports whether s is one or two digits.
func shortNumber(s string) bool {
	return s != "" && len(s) <= 2 && strings.Trim(s, "0123456789") == ""
}

// ordinalBeforeLower reports whether before ends with an ordinal day, a
// number of one or two digits and its full stop ("am 1.", "den 12."),
// and the text after it goes on in lower case ("märz", "stock", "ein",
// "bis 15."): a sentence ends before a capital, and a lower-case chat
// that drops its capitals drops them after a number too, so only a word
// German puts after an ordinal ("am", "bis", a month, a noun of counting)
// or a lower-case word after a preposition that takes a date ("am 12.
// ein") counts.
func ordinalBeforeLower(before string, after []rune) bool {
	s := strings.TrimSuffix(before, ".")
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return false
	}
	num := strings.TrimLeft(fields[len(fields)-1], "(\"'")
	if !shortNumber(num) {
		return false
	}
	next := strings.Fields(string(after))
	if len(next) == 0 {
		return false
	}
	w := strings.Trim(next[0], ",.!?;:)")
	if germanOrdinalNouns[strings.ToLower(w)] {
		return true // "im 3. Stock", "Omas 90. Geburtstag": German capitalises the noun an ordinal counts
	}
	if w == "" || !unicode.IsLower([]rune(w)[0]) {
		return false
	}
	if germanAfterOrdinal[w] || ordinalMonths[w] {
		return true
	}
	if len(fields) >= 2 {
		return germanDatePrepositions[strings.ToLower(fields[len(fields)-2])]
	}
	return false
}

// germanAfterOrdinal are the lower-case words German writes right after
// an ordinal: the months, the counted nouns, and the words joining a
// range or the day to its time.
var germanAfterOrdinal = map[string]bool{"januar": true, "februar": true, "märz": true, "april": true, "mai": true,
	"juni": true, "juli": true, "august": true, "september": true, "oktober": true, "november": true,
	"dezember": true, "bis": true, "und": true, "oder": true, "stock": true, "etage": true, "woche": true,
	"monat": true, "tag": true, "geburtstag": true, "klasse": true, "platz": true, "runde": true,
	"mal": true, "jahrhundert": true, "abends": true, "morgens": true, "mittags": true, "nachmittags": true,
	"früh": true, "frei": true, "am": true}

// germanOrdinalNouns are the nouns an ordinal counts, in either case:
// after one, even capitalised, no sentence begins.
var germanOrdinalNouns = map[string]bool{"stock": true, "etage": true, "woche": true, "monat": true,
	"geburtstag": true, "klasse": true, "platz": true, "runde": true, "jahrhundert": true, "obergeschoss": true,
	"og": true, "semester": true, "lehrjahr": true, "schwangerschaftswoche": true, "ssw": true}

// germanDatePrepositions take a day ("am 12.", "ab 19.", "bis zum 26."):
// an ordinal after them is a date whatever word follows it.
var germanDatePrepositions = map[string]bool{"am": true, "ab": true, "bis": true, "vom": true, "zum": true,
	"den": true, "dem": true, "seit": true, "im": true}

// germanAbbreviation reports whether s ends with a German abbreviation
// whose full stop ends no sentence: "z. B.", "ca.", "bzw.", "usw.". (A
// lone "z." is the first half of "z. B."; English has no such word.)
func germanAbbreviation(s string) bool {
	s = strings.TrimSuffix(s, ".")
	lower := strings.ToLower(s)
	if strings.HasSuffix(lower, " z") || strings.HasSuffix(lower, "z. b") || strings.HasSuffix(lower, "z.b") {
		return true
	}
	i := strings.LastIndexAny(lower, " (\"'")
	return germanAbbreviations[lower[i+1:]]
}

// germanAbbreviations are German's common abbreviations, lower case.
var germanAbbreviations = map[string]bool{"ca": true, "bzw": true, "usw": true, "evtl": true, "ggf": true,
	"inkl": true, "zzgl": true, "nr": true, "str": true, "tel": true, "vgl": true, "geb": true, "mind": true,
	"dipl": true}
