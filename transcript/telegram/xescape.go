package telegram

import "io"

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

func (x *xEscapeReader) Read(p []byte) (int, error) {
	for len(x.pending) == 0 {
		if x.err != nil {
			return 0, x.err
		}
		m, err := x.r.Read(x.buf)
		x.err = err
		x.out = x.out[:0]
		for _, c := range x.buf[:m] {
			switch {
			case x.escaped:
				x.escaped = false
				if c == 'x' {
					x.out = append(x.out, 'u', '0', '0')
					continue
				}
			case x.inString && c == '\\':
				x.escaped = true
			case c == '"':
				x.inString = !x.inString
			}
			x.out = append(x.out, c)
		}
		x.pending = x.out
	}
	n := copy(p, x.pending)
	x.pending = x.pending[n:]
	return n, nil
}
