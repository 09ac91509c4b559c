package archive

import (
	"strings"
	"unicode"
)

// MaxLabelPartRunes is how many characters each half of a speaker label keeps.
const MaxLabelPartRunes = 64

// NormalizeLabelPart normalises one half (display name or id) of a speaker
// label (SPEC §3.3): whitespace runs collapse to one space and are trimmed,
// other control characters are removed, '[' becomes '(', ']' becomes ')',
// ':' becomes a space (and collapses with its neighbours), and the result is
// cut to 64 characters. A cut that ends on a space is trimmed again, so a
// normalised half never starts or ends with a space and NormalizeLabelPart is
// idempotent. Invalid UTF-8 bytes become U+FFFD. Message content is never
// passed through this.
func NormalizeLabelPart(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	n := 0           // runes written
	pending := false // a space is owed before the next visible rune
	for _, r := range s {
		switch {
		case r == '[':
			r = '('
		case r == ']':
			r = ')'
		case r == ':' || unicode.IsSpace(r):
			// Tabs and newlines are both space and control; they separate
			// words, so they count as space rather than vanishing.
			pending = n > 0
			continue
		case unicode.IsControl(r):
			continue
		}
		if pending {
			if n+1 >= MaxLabelPartRunes {
				break
			}
			b.WriteByte(' ')
			n++
			pending = false
		}
		b.WriteRune(r)
		n++
		if n == MaxLabelPartRunes {
			break
		}
	}
	return b.String()
}

// SpeakerLabel returns the record label for a speaker: "display (id)" of the
// normalised halves, or whichever half is non-empty, or "" when both are.
func SpeakerLabel(display, id string) string {
	d, i := NormalizeLabelPart(display), NormalizeLabelPart(id)
	switch {
	case d != "" && i != "":
		return d + " (" + i + ")"
	case d != "":
		return d
	}
	return i
}
