package distill

import "unicode"

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
