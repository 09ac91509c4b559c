package discord

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
	display string // the name the caller passed, with the file's path for a folder
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

// walk decodes the file as one JSON object. fields is called with each
// top-level key and the decoder positioned at its value; it must consume
// the value (elements does so for an array, element by element).
func (f jsonFile) walk(what string, fields func(dec *json.Decoder, key string) error) error {
	dec := json.NewDecoder(bytes.NewReader(f.body()))
	tok, err := dec.Token()
	if err != nil {
		return f.problem(err, 1, "not a JSON object ("+what+")")
	}
	if tok != json.Delim('{') {
		return f.errorf(1, "not a JSON object (%s)", what)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return f.problem(err, f.lineAt(dec.InputOffset()+f.bom()), "")
		}
		if err := fields(dec, tok.(string)); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing }
		return f.problem(err, f.lineAt(int64(len(f.data))), "")
	}
	if _, err := dec.Token(); err != io.EOF {
		return f.errorf(f.lineAt(dec.InputOffset()+f.bom()), "unexpected data after the JSON object")
	}
	return nil
}

// elements reads the array the decoder is at and calls fn for every element
// with the line the element starts on. what names the array in messages.
func (f jsonFile) elements(dec *json.Decoder, what string, fn func(raw json.RawMessage, line int) error) error {
	line := f.lineAt(dec.InputOffset() + f.bom())
	tok, err := dec.Token()
	if err != nil {
		return f.problem(err, line, what)
	}
	if tok != json.Delim('[') {
		return f.errorf(line, "%s is not an array", what)
	}
	data := f.body()
	lines := lineCounter{data: f.data}
	for dec.More() {
		start := dec.InputOffset()
		for start < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[start]) >= 0 {
			start++
		}
		line := lines.at(start + f.bom())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return f.problem(err, line, "")
		}
		if err := fn(raw, line); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return f.problem(err, f.lineAt(int64(len(f.data))), "")
	}
	return nil
}

// body is the data without a UTF-8 byte order mark; bom is its length.
func (f jsonFile) body() []byte { return bytes.TrimPrefix(f.data, []byte("\xef\xbb\xbf")) }
func (f jsonFile) bom() int64   { return int64(len(f.data) - len(f.body())) }

// problem turns a decoding error into a *transcript.Error: a syntax error at
// its own line, a cut-off file at its end, anything else at line.
func (f jsonFile) problem(err error, line int, prefix string) error {
	if prefix != "" {
		prefix += ": "
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return f.errorf(f.lineAt(syn.Offset+f.bom()), "%sinvalid JSON: %s", prefix, strings.TrimPrefix(err.Error(), "json: "))
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

// decode unmarshals one element; a wrong shape is an error at its line.
func (f jsonFile) decode(raw json.RawMessage, line int, v any) error {
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
