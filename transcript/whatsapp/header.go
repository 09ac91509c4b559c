package whatsapp

import (
	"bytes"
	"unicode/utf8"
)

// header is the date and time that open a message line, as written: the
// three date numbers in their written order (which is day, month or year is
// decided for the whole file later) and a 24-hour time.
type header struct {
	date   [3]int
	digits [3]int // how many digits each date number had
	hour   int
	minute int
	second int
	shape  shape
}

// shape is what every message line of one export has in common. The first
// line fixes it; a later line that looks like a header but has another
// shape is a continuation line (someone pasted a date into a message).
type shape struct {
	bracket bool // iOS: "[31.12.23, 21:15:07] "; Android: "31/12/2023, 21:15 - "
	dateSep byte // '/', '.' or '-'
	timeSep byte // ':' or '.'
	seconds bool
	ampm    bool
}

// Marks WhatsApp puts before some lines and message bodies.
const (
	lrm  = "\u200e" // LEFT-TO-RIGHT MARK: iOS, before system, media and deleted lines
	rlm  = "\u200f" // RIGHT-TO-LEFT MARK: exports in right-to-left languages
	nnbs = "\u202f" // NARROW NO-BREAK SPACE: before AM/PM in recent exports
	nbsp = "\u00a0"
)

// parseHeader reads the date and time at the start of line and returns the
// rest of the line after the separator ("] " or " - "). It accepts the
// layouts WhatsApp uses across locales:
//
//	[07.06.23, 20:28:13] Name: text        iOS, German
//	[6/7/23, 8:28:13 PM] Name: text        iOS, US English (U+202F before PM)
//	[2023/06/07 20:28:13] Name: text       iOS, Japanese
//	12/31/23, 9:15 PM - Name: text         Android, US English
//	31/12/2023, 21:15 - Name: text         Android, UK English, Spanish, ...
//	31.12.23, 21:15 - Name: text           Android, German
//	31/12/2023 à 21:15 - Name: text        Android, French
//	2023-12-31 21:15 - Name: text          Android, Swedish
//	13. 6. 2018. 21:25:15 - Name: text     Hungarian, Czech ("N. " dates)
//	31.12.2023 klo 21.15 - Name: text      Finnish (a word between date and time)
func parseHeader(line []byte) (header, []byte, bool) {
	var h header
	b := skipMarks(line)
	if len(b) > 0 && b[0] == '[' {
		h.shape.bracket = true
		b = b[1:]
	}
	// Date: three numbers, one separator, each optionally followed by a space.
	for i := 0; i < 3; i++ {
		n, d, rest := number(b, 4)
		if d == 0 {
			return h, nil, false
		}
		h.date[i], h.digits[i], b = n, d, rest
		if i < 2 {
			if len(b) == 0 || b[0] != '/' && b[0] != '.' && b[0] != '-' {
				return h, nil, false
			}
			if i == 0 {
				h.shape.dateSep = b[0]
			} else if b[0] != h.shape.dateSep {
				return h, nil, false
			}
			b = b[1:]
			if len(b) > 0 && b[0] == ' ' {
				b = b[1:]
			}
		}
	}
	if len(b) > 0 && b[0] == '.' { // "2018." in dotted-space dates
		b = b[1:]
	}
	// Between date and time: ", ", " " or " word ".
	if len(b) > 0 && b[0] == ',' {
		b = b[1:]
	}
	if len(b) == 0 || b[0] != ' ' {
		return h, nil, false
	}
	b = b[1:]
	for _, w := range dateTimeWords {
		if bytes.HasPrefix(b, []byte(w+" ")) {
			b = b[len(w)+1:]
			break
		}
	}
	// Time: H:MM or H:MM:SS (or with dots), then an optional AM/PM.
	var d int
	if h.hour, d, b = number(b, 2); d == 0 || len(b) == 0 || b[0] != ':' && b[0] != '.' {
		return h, nil, false
	}
	h.shape.timeSep = b[0]
	if h.minute, d, b = number(b[1:], 2); d != 2 {
		return h, nil, false
	}
	if len(b) > 0 && b[0] == h.shape.timeSep {
		if h.second, d, b = number(b[1:], 2); d != 2 {
			return h, nil, false
		}
		h.shape.seconds = true
	}
	if rest, pm, ok := ampm(b); ok {
		h.shape.ampm = true
		b = rest
		if h.hour < 1 || h.hour > 12 {
			return h, nil, false
		}
		h.hour %= 12
		if pm {
			h.hour += 12
		}
	}
	if h.hour > 23 || h.minute > 59 || h.second > 59 {
		return h, nil, false
	}
	switch {
	case h.shape.bracket && bytes.HasPrefix(b, []byte("] ")):
		return h, b[2:], true
	case h.shape.bracket && len(b) == 1 && b[0] == ']':
		return h, b[1:], true // a line with a header and nothing else
	case !h.shape.bracket && bytes.HasPrefix(b, []byte(" - ")):
		return h, b[3:], true
	}
	return h, nil, false
}

// ampm reads " AM", "\u202fPM", " p.m.", " p. m." (any case).
func ampm(b []byte) (rest []byte, pm, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte(" ")):
		b = b[1:]
	case bytes.HasPrefix(b, []byte(nnbs)):
		b = b[len(nnbs):]
	case bytes.HasPrefix(b, []byte(nbsp)):
		b = b[len(nbsp):]
	default:
		return nil, false, false
	}
	if len(b) == 0 {
		return nil, false, false
	}
	switch b[0] | 0x20 {
	case 'a':
	case 'p':
		pm = true
	default:
		return nil, false, false
	}
	b = b[1:]
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
		if len(b) > 0 && b[0] == ' ' {
			b = b[1:]
		}
	}
	if len(b) == 0 || b[0]|0x20 != 'm' {
		return nil, false, false
	}
	b = b[1:]
	if len(b) > 0 && b[0] == '.' {
		b = b[1:]
	}
	return b, pm, true
}

// number reads 1 to max ASCII digits.
func number(b []byte, max int) (n, digits int, rest []byte) {
	for digits < len(b) && digits < max && isDigit(b[digits]) {
		n = n*10 + int(b[digits]-'0')
		digits++
	}
	if digits < len(b) && isDigit(b[digits]) {
		return 0, 0, b // too many digits
	}
	return n, digits, b[digits:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipMarks drops the direction marks WhatsApp writes before a line.
func skipMarks(b []byte) []byte {
	for {
		r, size := utf8.DecodeRune(b)
		if r != '\u200e' && r != '\u200f' {
			return b
		}
		b = b[size:]
	}
}

// dateTimeWords are the words some locales put between date and time.
// Words that carry meaning (the Korean and Chinese markers of morning and
// afternoon before the time) are deliberately absent: such a line is not
// read rather than read at the wrong hour.
var dateTimeWords = []string{"à", "klo", "kl.", "um"}
