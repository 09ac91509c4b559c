package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// looksLike says in a few words what a file no format recognises holds,
// from its first bytes and its size, so that the owner can tell a stray
// file from an export the importer misread: "JSON object with top-level
// keys a, b, c", "plain text, first line “…”", "a PNG image".
func looksLike(head []byte, size int64) string {
	// The description quotes the file (a first line, JSON keys) and
	// reaches the owner's terminal: control characters never pass.
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '·'
		}
		return r
	}, describeHead(head, size))
}

func describeHead(head []byte, size int64) string {
	if size == 0 || len(head) == 0 {
		return "an empty file"
	}
	for _, m := range []struct {
		magic, what string
	}{
		{"PK\x03\x04", "a zip archive"}, {"%PDF", "a PDF document"}, {"\x89PNG", "a PNG image"},
		{"\xff\xd8\xff", "a JPEG image"}, {"GIF8", "a GIF image"}, {"\x1f\x8b", "gzip-compressed data"},
		{"SQLite format 3\x00", "an SQLite database"}, {"OggS", "Ogg audio"}, {"RIFF", "a RIFF file (audio or video)"},
	} {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return m.what
		}
	}
	if len(head) >= 12 && string(head[4:8]) == "ftyp" {
		return "an MP4 or MOV video"
	}
	b := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(b, 0) >= 0 || !validUTF8Prefix(b) {
		return fmt.Sprintf("binary data (first bytes % x)", b[:min(len(b), 8)])
	}
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 {
		return "blank text"
	}
	if t[0] == '{' || t[0] == '[' {
		if s := jsonShape(t); s != "" {
			return s
		}
	}
	// A lone CR ends a line too (old Mac text).
	first := string(t)
	if i := strings.IndexAny(first, "\r\n"); i >= 0 {
		first = first[:i]
	}
	if utf8.RuneCountInString(first) > 60 {
		first = string([]rune(first)[:60]) + "…"
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(string(t))), "<!doctype html") || strings.HasPrefix(string(t), "<html") {
		return "an HTML page, first line “" + first + "”"
	}
	return "plain text, first line “" + first + "”"
}

// validUTF8Prefix is utf8.Valid for a prefix that may end inside a
// character.
func validUTF8Prefix(b []byte) bool {
	for i := 0; i < 3 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return utf8.Valid(b)
}

// jsonShape describes JSON by its top level: an object's keys (those the
// prefix holds), an array's first element, or one line's keys for JSON
// lines. "" when the prefix is not JSON.
func jsonShape(t []byte) string {
	if first, rest, ok := bytes.Cut(t, []byte("\n")); ok && t[0] == '{' {
		var obj map[string]json.RawMessage
		if json.Unmarshal(bytes.TrimSpace(first), &obj) == nil && len(bytes.TrimSpace(rest)) > 0 {
			return "JSON lines; the first has keys " + keyList(sortedKeys(obj))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	tok, err := dec.Token()
	if err != nil {
		return ""
	}
	switch tok {
	case json.Delim('{'):
		keys := objectKeys(dec)
		if len(keys) == 0 {
			return "a JSON object with no keys"
		}
		return "a JSON object with top-level keys " + keyList(keys)
	case json.Delim('['):
		tok, err := dec.Token()
		switch {
		case err != nil:
			return "a JSON array"
		case tok == json.Delim(']'):
			return "an empty JSON array"
		case tok == json.Delim('{'):
			if keys := objectKeys(dec); len(keys) > 0 {
				return "a JSON array of objects with keys " + keyList(keys)
			}
			return "a JSON array of objects"
		case tok == json.Delim('['):
			return "a JSON array of arrays"
		}
		return fmt.Sprintf("a JSON array of %T values", tok)
	}
	return ""
}

// objectKeys reads the keys of the object the decoder is in, skipping
// their values, as far as the prefix goes.
func objectKeys(dec *json.Decoder) []string {
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		k, ok := tok.(string)
		if !ok {
			break
		}
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
	}
	return keys
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// keyList names at most eight keys.
func keyList(keys []string) string {
	const most = 8
	if len(keys) > most {
		return strings.Join(keys[:most], ", ") + fmt.Sprintf(" and %d more", len(keys)-most)
	}
	return strings.Join(keys, ", ")
}

// jsonLines reports whether head, a file's first bytes, starts with a line
// that is a JSON object by itself with some field of our own turn lines
// (SPEC §7): a file that may be our own JSONL with a mistake, which the
// store then reports line by line.
func jsonLines(head []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	first, _, _ := bytes.Cut(t, []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(first), &obj) != nil {
		return false
	}
	for _, k := range []string{"session", "id", "parent", "role", "content", "speaker_id", "speaker_display", "time", "tier"} {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}
