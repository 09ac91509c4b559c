package jsonscan

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes a string token that String accepted (quotes included;
// escaped as String reported) as encoding/json decodes it into a string:
// escapes resolved, a lone or broken UTF-16 surrogate and each byte of
// invalid UTF-8 becoming U+FFFD. ok is false only for a token String would
// refuse.
func Unquote(tok []byte, escaped bool) (s string, ok bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return "", false
	}
	body := tok[1 : len(tok)-1]
	if !escaped && utf8.Valid(body) {
		return string(body), true
	}
	// A Builder hands its bytes over as the string without a copy.
	var out strings.Builder
	out.Grow(len(body))
	for r := 0; r < len(body); {
		c := body[r]
		switch {
		case c == '\\':
			if r+1 >= len(body) {
				return "", false
			}
			switch e := body[r+1]; e {
			case '"', '\\', '/':
				out.WriteByte(e)
				r += 2
			case 'b':
				out.WriteByte('\b')
				r += 2
			case 'f':
				out.WriteByte('\f')
				r += 2
			case 'n':
				out.WriteByte('\n')
				r += 2
			case 'r':
				out.WriteByte('\r')
				r += 2
			case 't':
				out.WriteByte('\t')
				r += 2
			case 'u':
				rr := u4(body[r:])
				if rr < 0 {
					return "", false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					// A valid pair is consumed whole; anything else leaves
					// the next escape to be read on its own.
					if dec := utf16.DecodeRune(rr, u4(body[r:])); dec != unicode.ReplacementChar {
						out.WriteRune(dec)
						r += 6
						break
					}
					rr = unicode.ReplacementChar
				}
				out.WriteRune(rr)
			default:
				return "", false
			}
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			out.WriteByte(c)
			r++
		default:
			rr, size := utf8.DecodeRune(body[r:])
			out.WriteRune(rr)
			r += size
		}
	}
	return out.String(), true
}

// u4 reads the \uXXXX escape at the start of s, or returns -1.
func u4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		v := hexVal(c)
		if v < 0 {
			return -1
		}
		r = r<<4 | v
	}
	return r
}
