// Package jsonscan walks JSON text in one pass, validating it as it goes,
// for parsers that need a few fields of long lines and skip the rest (a
// transcript's tool results): encoding/json validates a whole value and
// then decodes it, so every skipped byte was read twice and the kept ones
// three times. Every function reports failure as -1 or false and never
// says why: a caller falls back to encoding/json for the message.
//
// What a caller accepts through this package must be what encoding/json
// accepts, decoded to the same strings; FuzzValue and FuzzUnquote check
// it against encoding/json.
package jsonscan

// MaxDepth bounds the nesting of a value (encoding/json's own bound is
// 10,000); a deeper value is reported as invalid, for the fallback.
const MaxDepth = 1000

// plain marks the bytes a string may hold as they are: not a quote, a
// backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// Space returns the index of the first byte at or after i that is not
// JSON white space.
func Space(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// Value returns the end of the valid JSON value that starts at b[i] (no
// white space before it), or -1.
func Value(b []byte, i int) int { return value(b, i, 0) }

func value(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		end, _ := String(b, i)
		return end
	case c == '{':
		if depth >= MaxDepth {
			return -1
		}
		return Object(b, i, func(_ []byte, _ bool, at int) int { return value(b, at, depth+1) })
	case c == '[':
		if depth >= MaxDepth {
			return -1
		}
		return Array(b, i, func(at int) int { return value(b, at, depth+1) })
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return number(b, i)
	}
	return -1
}

func literal(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// number returns the end of the number at b[i], or -1 (RFC 8259's grammar).
func number(b []byte, i int) int {
	if b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// String returns the end of the valid string that starts at b[i] (its
// opening quote): the index after its closing quote, or -1. escaped says
// it holds a backslash, so that Unquote has work to do.
func String(b []byte, i int) (end int, escaped bool) {
	i++
	for {
		// The plain run: nearly all of a string.
		for i+4 <= len(b) && plain[b[i]] && plain[b[i+1]] && plain[b[i+2]] && plain[b[i+3]] {
			i += 4
		}
		for i < len(b) && plain[b[i]] {
			i++
		}
		if i >= len(b) {
			return -1, false
		}
		switch b[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			escaped = true
			if i+1 >= len(b) {
				return -1, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return -1, false
				}
				for _, h := range b[i+2 : i+6] {
					if hexVal(h) < 0 {
						return -1, false
					}
				}
				i += 6
			default:
				return -1, false
			}
		default: // a control character
			return -1, false
		}
	}
}

func hexVal(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}

// Object walks the valid object that starts at b[i] (its '{'), calling
// member for each member with its key's bytes as written (between the
// quotes; escaped says they hold a backslash) and the index where its
// value starts. member returns the end of that value, or -1 to fail.
// Object returns the index after the closing '}', or -1.
func Object(b []byte, i int, member func(key []byte, escaped bool, at int) int) int {
	i = Space(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		kend, kesc := String(b, i)
		if kend < 0 {
			return -1
		}
		j := Space(b, kend)
		if j >= len(b) || b[j] != ':' {
			return -1
		}
		j = Space(b, j+1)
		end := member(b[i+1:kend-1], kesc, j)
		if end < 0 {
			return -1
		}
		i = Space(b, end)
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = Space(b, i+1)
		case '}':
			return i + 1
		default:
			return -1
		}
	}
}

// Array walks the valid array that starts at b[i] (its '['), calling
// element with the index where each element starts; element returns the
// end of that element, or -1 to fail. Array returns the index after the
// closing ']', or -1.
func Array(b []byte, i int, element func(at int) int) int {
	i = Space(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		end := element(i)
		if end < 0 {
			return -1
		}
		i = Space(b, end)
		if i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i = Space(b, i+1)
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}
