package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The first person and what a rewrite makes of it: "we" reported as
// "they", "my husband and I", and the check that no first-person word is
// left outside quotes.

// myAndIRe opens with "my <someone> and I".
var myAndIRe = lazyRegexp(`^(?i:my|our) ([a-z]+(?: [a-z]+)?) (?i:and) (I|I've|I'm|I'll|I'd|i|i've|i'm|i'll|i'd)\b ?`)

// pairedWithI reports whether the words before "and I" name someone
// ("Kate and I", "my husband and I") rather than end a clause ("half the
// year and I'm tired").
func pairedWithI(before string, names map[string]bool) bool {
	fs := strings.Fields(strings.TrimSuffix(before, " and"))
	if len(fs) == 0 {
		return false
	}
	w := strings.Trim(fs[len(fs)-1], ",.!?;:")
	return names[nameKey(w)] && !calendarWords[nameKey(w)] || themeLexicons[ThemeFamily].words[strings.ToLower(w)]
}

// theyForms are a person's "we" words, reported: "we're" is "they are".
var theyForms = map[string]string{"we": "they", "we're": "they are", "we've": "they have", "we'll": "they will",
	"we'd": "they would", "us": "them", "our": "their", "ours": "theirs", "ourselves": "themselves"}

// weFirst reports whether the first first-person word of toks is a "we"
// word (not "let's", which proposes rather than reports).
func weFirst(toks []string) bool {
	for _, tok := range toks {
		lw := strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
		if !firstPerson[lw] {
			continue
		}
		_, ok := theyForms[lw]
		return ok
	}
	return false
}

// lowerFirst lower-cases a word's first letter.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// hasWe reports whether text says "we", "our" or "us".
func hasWe(text string) bool {
	for _, tok := range tokens(strings.ToLower(text)) {
		switch strings.ReplaceAll(tok, "’", "'") {
		case "we", "we're", "we've", "we'll", "we'd", "us", "our", "ours":
			return true
		}
	}
	return false
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// thirdPersonCJK rewrites 我 as the subject; 我们 (we) is left to a quote.
func thirdPersonCJK(text, subject string) (string, bool) {
	if strings.Contains(text, "我们") || strings.Contains(text, "咱们") {
		return "", false
	}
	out := replaceWo(text, subject) // chinese.go
	if hasEnglishFirstPerson(out) {
		return "", false
	}
	return out, true
}

func hasEnglishFirstPerson(s string) bool { return len(FirstPersonWords(s)) > 0 }

// FirstPersonWords returns the first-person pronouns of text outside
// double quotes ("I", "my", "we", "let's", 我, 我们…): a distilled fact
// must have none, since it speaks of its subject in the third person.
func FirstPersonWords(text string) []string {
	var out []string
	inQuote := false
	for _, tok := range tokens(text) {
		r, _ := utf8.DecodeRuneInString(tok)
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			for _, c := range tok {
				if c == '"' || c == '“' || c == '”' {
					inQuote = !inQuote
				}
			}
			continue
		}
		if inQuote {
			continue
		}
		lw := strings.ToLower(strings.ReplaceAll(tok, "’", "'"))
		if firstPerson[lw] {
			out = append(out, tok)
			continue
		}
		if strings.Contains(tok, "我") {
			out = append(out, "我")
		}
	}
	return out
}
