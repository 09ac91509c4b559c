package slack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"scriptorium/transcript"
)

// jsonFile is one file of the export being read, with what an error about it
// needs: the name to show and the bytes to count lines in.
type jsonFile struct {
	display string // export name and path inside it: "acme.zip/general/2024-01-02.json"
	data    []byte
}

// lineAt is the 1-based line of byte offset off.
func (f jsonFile) lineAt(off int64) int {
	if off > int64(len(f.data)) {
		off = int64(len(f.data))
	}
	return 1 + bytes.Count(f.data[:max(off, 0)], []byte("\n"))
}

// lineCounter numbers the lines of increasing offsets in one pass, so
// numbering every element of a big file costs one scan, not one per element.
type lineCounter struct {
	data []byte
	off  int64
	line int
}

func (c *lineCounter) at(off int64) int {
	off = min(max(off, 0), int64(len(c.data)))
	if off < c.off || c.line == 0 {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.data[c.off:off], []byte("\n"))
	c.off = off
	return c.line
}

// errorf is a *transcript.Error at line (0: about the whole file).
func (f jsonFile) errorf(line int, format string, args ...any) error {
	return &transcript.Error{File: f.display, Line: line, Message: fmt.Sprintf(format, args...)}
}

// eachElement decodes the file as a JSON array and calls fn for every element
// with the line the element starts on and a decode that reads the element
// into v straight from the decoder (one that fn does not decode is
// skipped). what names the array's elements in messages ("messages",
// "channels"). Syntax errors name their own line; a value of the wrong
// shape names the line its element starts on.
func (f jsonFile) eachElement(what string, fn func(line int, decode func(v any) error) error) error {
	data := bytes.TrimPrefix(f.data, []byte("\xef\xbb\xbf"))
	bom := int64(len(f.data) - len(data))
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return f.problem(err, bom, 1, "not a JSON array of "+what)
	}
	if tok != json.Delim('[') {
		return f.errorf(1, "not a JSON array of %s", what)
	}
	lines := lineCounter{data: f.data}
	for dec.More() {
		start := dec.InputOffset()
		for start < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[start]) >= 0 {
			start++
		}
		line := lines.at(start + bom)
		decoded := false
		decode := func(v any) error {
			decoded = true
			if err := dec.Decode(v); err != nil {
				return f.problem(err, bom, line, "")
			}
			return nil
		}
		if err := fn(line, decode); err != nil {
			return err
		}
		if !decoded {
			var skip json.RawMessage
			if err := decode(&skip); err != nil {
				return err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return f.problem(err, bom, f.lineAt(int64(len(f.data))), "")
	}
	if _, err := dec.Token(); err != io.EOF {
		return f.errorf(f.lineAt(dec.InputOffset()+bom), "unexpected data after the array of %s", what)
	}
	return nil
}

// problem turns a decoding error into a *transcript.Error: a syntax error at
// its own line, a cut-off file at its end, anything else at line.
func (f jsonFile) problem(err error, bom int64, line int, prefix string) error {
	if prefix != "" {
		prefix += ": "
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return f.errorf(f.lineAt(syn.Offset+bom), "%sinvalid JSON: %s", prefix, strings.TrimPrefix(err.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return f.errorf(f.lineAt(int64(len(f.data))), "%sunexpected end of file (the export is cut short)", prefix)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the value"
		}
		return f.errorf(line, "%s%s is a JSON %s, want %s", prefix, field, typ.Value, typ.Type)
	}
	return f.errorf(line, "%s%s", prefix, strings.TrimPrefix(err.Error(), "json: "))
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
