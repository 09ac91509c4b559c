package archive

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

const upperHex = "0123456789ABCDEF"

// isUnreserved reports whether b is an RFC 3986 unreserved byte.
func isUnreserved(b byte) bool {
	return 'A' <= b && b <= 'Z' || 'a' <= b && b <= 'z' || '0' <= b && b <= '9' ||
		b == '-' || b == '.' || b == '_' || b == '~'
}

// EncodeSpeakerID returns the canonical encoding of id for a speaker-id
// comment: RFC 3986 unreserved bytes stay literal, every other byte is %XX in
// upper-case hex, and a '-' that follows a literal '-' is written %2D, so the
// result never contains "--" and fits inside an HTML comment.
func EncodeSpeakerID(id string) string {
	var b strings.Builder
	b.Grow(len(id))
	prevDash := false
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c == '-' && prevDash:
			b.WriteString("%2D")
			prevDash = false
		case isUnreserved(c):
			b.WriteByte(c)
			prevDash = c == '-'
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0x0f])
			prevDash = false
		}
	}
	return b.String()
}

// DecodeSpeakerID decodes a speaker-id comment value. It is strict: enc must
// be exactly EncodeSpeakerID of a valid UTF-8 id, so lower-case hex, a
// needless escape, a bad escape, a literal "--" or bytes that decode to
// invalid UTF-8 are errors wrapping ErrInvalidSpeakerID. The empty value
// decodes to the empty id (the display-only marker).
func DecodeSpeakerID(enc string) (string, error) {
	buf := make([]byte, 0, len(enc))
	for i := 0; i < len(enc); {
		c := enc[i]
		if c != '%' {
			if !isUnreserved(c) {
				return "", fmt.Errorf("%w: byte %q at offset %d must be escaped", ErrInvalidSpeakerID, c, i)
			}
			buf = append(buf, c)
			i++
			continue
		}
		if i+2 >= len(enc) {
			return "", fmt.Errorf("%w: truncated escape at offset %d", ErrInvalidSpeakerID, i)
		}
		hi, ok1 := unhexUpper(enc[i+1])
		lo, ok2 := unhexUpper(enc[i+2])
		if !ok1 || !ok2 {
			return "", fmt.Errorf("%w: bad escape %q at offset %d (want upper-case hex)", ErrInvalidSpeakerID, enc[i:i+3], i)
		}
		buf = append(buf, hi<<4|lo)
		i += 3
	}
	if !utf8.Valid(buf) {
		return "", fmt.Errorf("%w: decoded id is not valid UTF-8", ErrInvalidSpeakerID)
	}
	id := string(buf)
	if EncodeSpeakerID(id) != enc {
		if strings.Contains(enc, "--") {
			return "", fmt.Errorf("%w: literal \"--\"", ErrInvalidSpeakerID)
		}
		return "", fmt.Errorf("%w: needless escape", ErrInvalidSpeakerID)
	}
	return id, nil
}

func unhexUpper(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
