// Package termsafe makes text safe to print on a terminal: record and block
// text comes from other people (an unpaired group message is enough), and
// raw on a terminal its escape sequences could move the cursor, erase a
// "pending review" line, retitle the window or write the clipboard (OSC
// 52), and bidi controls could reorder what the owner reads. Every such
// code point is replaced by a visible stand-in, never dropped, so the owner
// sees that it is there; newlines and tabs stay. It is for output meant
// for a person only: --json, the files on disk and the protocols keep the
// bytes exact.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// String returns s with every terminal control made visible: C0 controls
// other than tab and newline (ESC, CR, BEL, NUL…) as their Unicode
// control pictures (␛ ␍ ␇ ␀), DEL as ␡, C1 controls and the bidi controls
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) as <U+XXXX>, and
// a byte that is not UTF-8 as <0xXX>. Text without any is returned as is.
func String(s string) string {
	i := Index(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, "<0x%02X>", s[i])
		case isControl(r):
			b.WriteString(stand(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Index returns the byte offset of the first code point (or invalid byte)
// in s that String would replace, or -1 when s is safe as it is. Tests use
// it to assert that output reached a terminal neutralised.
func Index(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || isControl(r) {
			return i
		}
		i += size
	}
	return -1
}

// isControl reports whether r is a code point String replaces.
func isControl(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// stand is the visible stand-in of a control r.
func stand(r rune) string {
	switch {
	case r < 0x20:
		return string(0x2400 + r) // the control pictures block mirrors C0
	case r == 0x7f:
		return "\u2421" // ␡
	}
	return fmt.Sprintf("<U+%04X>", r)
}

// Writer neutralises everything written through it (String) before it
// reaches the underlying writer. A UTF-8 sequence split between two
// writes is held back until it is complete, so a C1 or bidi control cannot
// slip through in halves; Flush writes what is held back at the end.
type Writer struct {
	w       io.Writer
	partial []byte // the start of a UTF-8 sequence the last write cut off
}

// NewWriter returns a Writer writing the neutralised text to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write neutralises p and writes it on; it reports all of p written when
// the underlying write succeeds.
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.partial) > 0 {
		data = append(w.partial, p...)
		w.partial = nil
	}
	keep := incompleteTail(data)
	if _, err := io.WriteString(w.w, String(string(data[:len(data)-keep]))); err != nil {
		return 0, err
	}
	if keep > 0 {
		w.partial = append([]byte(nil), data[len(data)-keep:]...)
	}
	return len(p), nil
}

// Flush writes a UTF-8 sequence left incomplete by the last write, as the
// invalid bytes it is.
func (w *Writer) Flush() error {
	if len(w.partial) == 0 {
		return nil
	}
	s := String(string(w.partial))
	w.partial = nil
	_, err := io.WriteString(w.w, s)
	return err
}

// Unwrap returns the writer under a Writer, or w itself: for the few
// callers that must reach the terminal directly (a progress bar's own
// cursor controls, a terminal check on the file).
func Unwrap(w io.Writer) io.Writer {
	if sw, ok := w.(*Writer); ok {
		return sw.w
	}
	return w
}

// incompleteTail returns how many bytes at the end of data start a UTF-8
// sequence that is not complete yet (0 when none).
func incompleteTail(data []byte) int {
	for k := 1; k <= utf8.UTFMax-1 && k <= len(data); k++ {
		start := len(data) - k
		if utf8.RuneStart(data[start]) {
			if !utf8.FullRune(data[start:]) {
				return k
			}
			return 0
		}
	}
	return 0
}
