package whatsapp

import "bytes"

// Sniff reports whether first, a prefix of a file (it may end mid-line),
// looks like a WhatsApp chat export: its first non-blank line starts with
// a date and time in one of WhatsApp's layouts ("[31.12.23, 21:15:07] " or
// "12/31/23, 9:15 PM - "). JSON and JSONL files never do: they start with
// "{" or "[" and a non-digit.
func Sniff(first []byte) bool {
	b := bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		_, _, ok := parseHeader(line)
		return ok
	}
	return false
}
