package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/workspace/archive"
)

// The field checks of one import line: what the writer can store is
// decided here, at import, with the line number at hand.

func parseTime(s string) (time.Time, string) {
	if s == "" {
		return time.Time{}, "missing time"
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Sprintf("bad time %q: want RFC 3339, e.g. 2026-08-10T12:00:00Z", s)
	}
	t = t.UTC().Truncate(time.Second)
	if t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, fmt.Sprintf("bad time %q: year out of range", s)
	}
	return t, ""
}

// checkTime is parseTime for a time handed over as a time.Time (a Node of
// AddNodes): the zero time is a missing one.
func checkTime(t time.Time) (time.Time, string) {
	if t.IsZero() {
		return time.Time{}, "missing time"
	}
	t = t.UTC().Truncate(time.Second)
	if t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, fmt.Sprintf("bad time %s: year out of range", t.Format(time.RFC3339))
	}
	return t, ""
}

// checkMetadata accepts a handed-over node's metadata: a JSON object, or
// nothing ("{}"). The store's own keys, the written marker and the
// forgotten mark, are refused: an import never decides what was written or
// forgotten.
func checkMetadata(raw json.RawMessage) (json.RawMessage, string) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}"), ""
	}
	if !utf8.Valid(raw) {
		return nil, "metadata is not a JSON object"
	}
	if bytes.IndexByte(raw, '\\') >= 0 || bytes.Contains(raw, []byte(MarkerKey)) || bytes.Contains(raw, []byte(ForgottenKey)) {
		// A key may be the store's own, spelled plainly or escaped: decode.
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj == nil {
			return nil, "metadata is not a JSON object"
		}
		for _, k := range []string{MarkerKey, ForgottenKey} {
			if _, ok := obj[k]; ok {
				return nil, fmt.Sprintf("metadata sets %q, which only the store writes", k)
			}
		}
	} else if !json.Valid(raw) || raw[firstNonSpace(raw)] != '{' {
		// What decodes into a map: an object (null decodes to none).
		return nil, "metadata is not a JSON object"
	}
	if !bytes.ContainsAny(raw, " \t\r\n") {
		return raw, "" // compact already, as json.Marshal writes it: every imported turn's case
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw) // valid: it decoded
	return b.Bytes(), ""
}

// firstNonSpace is the index of raw's first byte that is not JSON white
// space; raw is valid JSON, so there is one.
func firstNonSpace(raw []byte) int {
	return len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
}

// checkID accepts ids that can sit inside a source-id and its HTML comment
// (SPEC §3.1): no whitespace or control characters, no "--", which would
// end the comment, and no '>'.
func checkID(field, v string) string {
	switch {
	case v == "":
		return "missing " + field
	case len(v) > 512:
		return field + " is longer than 512 bytes"
	case strings.Contains(v, "--"):
		return fmt.Sprintf("%s %q contains \"--\", which cannot appear in a source-id", field, v)
	case strings.Contains(v, ">"):
		return fmt.Sprintf("%s %q contains '>', which cannot appear in a source-id", field, v)
	}
	for _, r := range v {
		if unicode.IsControl(r) || unicode.IsSpace(r) || r == utf8.RuneError {
			return fmt.Sprintf("%s %q contains whitespace or a control character", field, v)
		}
	}
	return ""
}

// checkSession accepts any session id a chat may use, up to 200 bytes and
// without control characters: a session id that is not a portable file
// name is given an escaped thread name (see threadName), not refused.
func checkSession(v string) string {
	switch {
	case v == "":
		return "missing session"
	case len(v) > maxThreadBytes:
		return fmt.Sprintf("session is longer than %d bytes", maxThreadBytes)
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Sprintf("session %q contains a control character (%U)", v, r)
		}
	}
	return ""
}

// checkProvider refuses what cannot be a provider name at all; whether the
// name is portable is checked against the store (checkNewProviders), which
// keeps accepting a provider it already holds.
func checkProvider(v string) string {
	if p := checkID("provider", v); p != "" {
		return p
	}
	switch {
	case len(v) > 100:
		return "provider is longer than 100 bytes"
	case strings.ContainsAny(v, `/\`):
		return fmt.Sprintf("provider %q contains a slash", v)
	}
	return ""
}

// checkSpeakerID refuses speaker ids the archive could not label: the id is
// stored raw (the archive encodes it), but its label half must show
// something and it must stay on one line.
func checkSpeakerID(v string) string {
	if v == "" {
		return ""
	}
	if len(v) > 512 {
		return "speaker_id is longer than 512 bytes"
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Sprintf("speaker_id %q contains a control character (%U)", v, r)
		}
	}
	if archive.NormalizeLabelPart(v) == "" {
		return fmt.Sprintf("speaker_id %q has no visible characters", v)
	}
	return ""
}

func checkRole(v string) string {
	if v == "" {
		return "missing role"
	}
	if len(v) > 32 {
		return "role is longer than 32 bytes"
	}
	for i, r := range v {
		lower := r >= 'a' && r <= 'z'
		if !lower && (i == 0 || !(r >= '0' && r <= '9' || r == '_' || r == '-')) {
			return fmt.Sprintf("bad role %q: want lower-case letters such as user, assistant, tool, system", v)
		}
	}
	return ""
}

func checkNoNUL(field, v string) string {
	if strings.IndexByte(v, 0) >= 0 {
		return field + " contains a NUL character (U+0000), which the store does not accept"
	}
	return ""
}
