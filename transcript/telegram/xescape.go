package telegram

import (
	"bytes"
	"io"
)

// xEscapeReader repairs one quirk of Telegram Desktop's JSON writer
// (SerializeString in export_output_json.cpp): a control character other
// than \n, \r and \t is written as \xHH, which is not JSON. Inside a string,
// the escape \x becomes \u00, so \x0B reads as U+000B. Everything else
// passes through unchanged; the reader tracks only whether it is inside a
// string and after a backslash, so it streams.
type xEscapeReader struct {
	r        io.Reader
	err      error
	inString bool
	escaped  bool
	buf, out []byte
	pending  []byte // the part of out not yet returned
}

func newXEscapeReader(r io.Reader) *xEscapeReader {
	return &xEscapeReader{r: r, buf: make([]byte, 32<<10)}
}

// rewrite appends in to out, rewritten. Runs of bytes that change no state
// (up to the next quote, or inside a string the next backslash) are found
// with bytes.IndexByte and copied whole: a byte at a time, this reader was
// a tenth of a Telegram import's parsing.
func (x *xEscapeReader) rewrite(in []byte) {
	nextQuote, nextSlash := -1, -1 // cached positions in in; -1: not looked up yet
	find := func(at *int, c byte, from int) int {
		if *at < from {
			if k := bytes.IndexByte(in[from:], c); k >= 0 {
				*at = from + k
			} else {
				*at = len(in)
			}
		}
		return *at
	}
	for i := 0; i < len(in); {
		if x.escaped {
			x.escaped = false
			if in[i] == 'x' {
				x.out = append(x.out, 'u', '0', '0')
			} else {
				x.out = append(x.out, in[i])
			}
			i++
			continue
		}
		j := find(&nextQuote, '"', i)
		if x.inString {
			j = min(j, find(&nextSlash, '\\', i))
		}
		x.out = append(x.out, in[i:j]...)
		if j == len(in) {
			return
		}
		if in[j] == '\\' {
			x.escaped = true
		} else {
			x.inString = !x.inString
		}
		x.out = append(x.out, in[j])
		i = j + 1
	}
}

func (x *xEscapeReader) Read(p []byte) (int, error) {
	for len(x.pending) == 0 {
		if x.err != nil {
			return 0, x.err
		}
		m, err := x.r.Read(x.buf)
		x.err = err
		x.out = x.out[:0]
		x.rewrite(x.buf[:m])
		x.pending = x.out
	}
	n := copy(p, x.pending)
	x.pending = x.pending[n:]
	return n, nil
}
