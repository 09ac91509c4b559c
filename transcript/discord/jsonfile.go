package discord

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"scriptorium/transcript"
)

// jsonFile walks one export's JSON tokens as they are read, and numbers the
// lines of what it reads so an error names its line without the file being
// held: it keeps only the bytes the decoder has read but not yet been asked
// the line of (about the decoder's own buffer).
type jsonFile struct {
	display string // the name the caller passed, with the file's path for a folder
	dec     *json.Decoder
	lines   *lineReader
	// light decodes of each message only lightMessage's fields (a wrong
	// type elsewhere goes unseen).
	light bool
}

func newJSONFile(r io.Reader, display string) *jsonFile {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3) // a byte order mark: no newline, so the lines agree
	}
	lr := &lineReader{r: br, line: 1}
	return &jsonFile{display: display, dec: json.NewDecoder(lr), lines: lr}
}

// lineReader passes the file to the decoder and keeps what it has not yet
// counted the newlines of.
type lineReader struct {
	r    io.Reader
	buf  []byte // the bytes read from base on
	base int64
	line int // the line of base
	err  error
}

func (l *lineReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.buf = append(l.buf, p[:n]...)
	if err != nil && err != io.EOF && l.err == nil {
		l.err = err
	}
	return n, err
}

// at is the line of offset off and forgets the bytes before it. Offsets go
// forward; one before the last asked is given that one's line.
func (l *lineReader) at(off int64) int {
	if off <= l.base {
		return l.line
	}
	k := int(min(off-l.base, int64(len(l.buf))))
	l.line += bytes.Count(l.buf[:k], []byte("\n"))
	l.base += int64(k)
	if rest := len(l.buf) - k; rest < k {
		l.buf = append(l.buf[:0], l.buf[k:]...) // reuse the array: the window stays about the decoder's buffer
	} else {
		l.buf = l.buf[k:]
	}
	return l.line
}

// start is the line of the value after off: past spaces and a comma.
func (l *lineReader) start(off int64) int {
	l.at(off)
	i := 0
	for i < len(l.buf) && strings.IndexByte(" \t\r\n,", l.buf[i]) >= 0 {
		i++
	}
	return l.at(l.base + int64(i))
}

// here is the line the decoder is at; end the last line read.
func (f *jsonFile) here() int { return f.lines.at(f.dec.InputOffset()) }
func (f *jsonFile) end() int  { return f.lines.at(math.MaxInt64) }

// errorf is a *transcript.Error at line (0: about the whole file).
func (f *jsonFile) errorf(line int, format string, args ...any) error {
	return &transcript.Error{File: f.display, Line: line, Message: fmt.Sprintf(format, args...)}
}

// walk decodes the file as one JSON object. fields is called with each
// top-level key and the decoder positioned at its value; it must consume
// the value (elements does so for an array, element by element).
func (f *jsonFile) walk(what string, fields func(key string) error) error {
	tok, err := f.dec.Token()
	if err != nil {
		return f.problem(err, 1, "not a JSON object ("+what+")")
	}
	if tok != json.Delim('{') {
		return f.errorf(1, "not a JSON object (%s)", what)
	}
	for f.dec.More() {
		tok, err := f.dec.Token()
		if err != nil {
			return f.problem(err, f.here(), "")
		}
		if err := fields(tok.(string)); err != nil {
			return err
		}
	}
	if _, err := f.dec.Token(); err != nil { // the closing }
		return f.problem(err, f.end(), "")
	}
	if _, err := f.dec.Token(); err != io.EOF {
		return f.errorf(f.here(), "unexpected data after the JSON object")
	}
	return nil
}

// elements reads the array the decoder is at and calls fn for every element
// with the line the element starts on; fn decodes it (next). what names
// the array in messages.
func (f *jsonFile) elements(what string, fn func(line int) error) error {
	line := f.here()
	tok, err := f.dec.Token()
	if err != nil {
		return f.problem(err, line, what)
	}
	if tok != json.Delim('[') {
		return f.errorf(line, "%s is not an array", what)
	}
	for f.dec.More() {
		if err := fn(f.lines.start(f.dec.InputOffset())); err != nil {
			return err
		}
	}
	if _, err := f.dec.Token(); err != nil { // the closing ]
		return f.problem(err, f.end(), "")
	}
	return nil
}

// next decodes the value the decoder is at, which starts on line, into v:
// straight from the stream, each message scanned once by the decoder and
// once as it is decoded (not copied, then validated again).
func (f *jsonFile) next(line int, v any) error {
	if err := f.dec.Decode(v); err != nil {
		return f.problem(err, line, "")
	}
	return nil
}

// skip consumes one value.
func (f *jsonFile) skip() error {
	var skip json.RawMessage
	if err := f.dec.Decode(&skip); err != nil {
		return f.problem(err, f.here(), "")
	}
	return nil
}

// problem turns a decoding error into a *transcript.Error: a syntax error at
// its own line, a cut-off file at its end, anything else at line.
func (f *jsonFile) problem(err error, line int, prefix string) error {
	if prefix != "" {
		prefix += ": "
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case f.lines.err != nil:
		return fmt.Errorf("%s: read: %w", f.display, f.lines.err)
	case errors.As(err, &syn):
		return f.errorf(f.lines.at(syn.Offset), "%sinvalid JSON: %s", prefix, strings.TrimPrefix(err.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return f.errorf(f.end(), "%sunexpected end of file (the export is cut short)", prefix)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the value"
		}
		return f.errorf(line, "%s%s is a JSON %s, want %s", prefix, field, typ.Value, typ.Type)
	}
	return f.errorf(line, "%s%s", prefix, strings.TrimPrefix(err.Error(), "json: "))
}

// decode unmarshals one element; a wrong shape is an error at its line.
func (f *jsonFile) decode(raw json.RawMessage, line int, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return f.problem(err, line, "")
	}
	return nil
}

// maxIDBytes bounds a session or message id: they become file names.
const maxIDBytes = 200

// idProblem says why s cannot be a session or message id (source-ids are
// "<provider>/<session>/<id>" and name files), or "" when it can.
func idProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > maxIDBytes:
		return fmt.Sprintf("is longer than %d bytes", maxIDBytes)
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	case strings.Contains(s, "--"):
		return `contains "--"`
	}
	for _, r := range s {
		if r == '/' || r == '\\' || r == '>' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Sprintf("contains %q", r)
		}
	}
	return ""
}
