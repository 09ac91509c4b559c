package archive

import (
	"bytes"
	"strings"
	"time"
)

// LegacyRecord is one record of a frozen legacy archive (SPEC §3.2). Nothing
// in it is trusted: a speaker hint is only a read-only search aid.
type LegacyRecord struct {
	// SourceID is the value of a <!-- source-id:… --> line directly above
	// the header, or "" (the caller synthesises one for unframed records).
	SourceID string
	// Anchor is the id of an <a id="source-…"></a> line directly above the
	// header, or "".
	Anchor string
	// Framed is true when frame lines (anchor, source-id, speaker-id, trust
	// or record-lines comments) directly precede the header.
	Framed bool
	// Time is the header time, converted to UTC (a fraction of a second is
	// kept; format with TimeLayout for the SPEC's second precision).
	Time time.Time
	// Label is the header label, as written.
	Label string
	// Content runs from after "<label>: " to the LF that ends the record's
	// last line: the LF before the next record's frame lines or header, or a
	// final LF of the file. Earlier LFs, CRs and blank lines are content.
	Content string
	// Line is the 1-based line of the header.
	Line int
	// HasHint is true for an unframed record labelled exactly "user" whose
	// first body line starts with "[<display> (<id>)]".
	HasHint bool
	// HintID and HintDisplay are the hint's halves when HasHint is true.
	HintID, HintDisplay string
}

// ParseLegacy returns the records of a legacy archive in file order. A
// record starts at a line "[<RFC 3339 time>] <label>: " (any offset; the
// label is non-empty and ends at the first ": ") and runs until the next
// such line. Frame lines directly above a header belong to that record, not
// to the body of the one before. Text before the first header is ignored.
// ParseLegacy accepts any bytes.
func ParseLegacy(data []byte) []LegacyRecord {
	recs, _ := parseLegacy(data)
	return recs
}

// legacySpan locates one legacy record in its file: where its frame lines
// start, where its header's label starts, and where the record ends (the
// end of its content).
type legacySpan struct{ frames, label, end int }

func parseLegacy(data []byte) ([]LegacyRecord, []legacySpan) {
	var starts []int // offset of each line; a line ends before its LF or at len(data)
	for p := 0; p < len(data); {
		starts = append(starts, p)
		i := bytes.IndexByte(data[p:], '\n')
		if i < 0 {
			break
		}
		p += i + 1
	}
	lineAt := func(k int) []byte {
		end := len(data)
		if k+1 < len(starts) {
			end = starts[k+1] - 1
		}
		return data[starts[k]:end]
	}

	type header struct {
		line, firstFrameLine, bodyStart int
		t                               time.Time
		label                           string
	}
	var heads []header
	for k := range starts {
		t, label, off, ok := legacyHeader(lineAt(k))
		if !ok {
			continue
		}
		first := k
		floor := -1
		if len(heads) > 0 {
			floor = heads[len(heads)-1].line
		}
		for first-1 > floor && isLegacyFrameLine(lineAt(first-1)) {
			first--
		}
		heads = append(heads, header{line: k, firstFrameLine: first, bodyStart: starts[k] + off, t: t, label: label})
	}

	recs := make([]LegacyRecord, 0, len(heads))
	spans := make([]legacySpan, 0, len(heads))
	for i, h := range heads {
		end := len(data)
		if i+1 < len(heads) {
			end = starts[heads[i+1].firstFrameLine] - 1
		} else if end > h.bodyStart && data[end-1] == '\n' {
			end--
		}
		rec := LegacyRecord{
			Time:    h.t,
			Label:   h.label,
			Content: string(data[h.bodyStart:end]),
			Line:    h.line + 1,
			Framed:  h.firstFrameLine < h.line,
		}
		for k := h.firstFrameLine; k < h.line; k++ {
			line := string(bytes.TrimSuffix(lineAt(k), []byte{'\r'}))
			if id, ok := cutAround(line, `<a id="`, `"></a>`); ok {
				rec.Anchor = id
			} else if v, ok := cutAround(line, sourceIDPrefix, commentSuffix); ok {
				rec.SourceID = strings.TrimSpace(v)
			}
		}
		if !rec.Framed && rec.Label == "user" {
			rec.HintDisplay, rec.HintID, rec.HasHint = legacyHint(rec.Content)
		}
		recs = append(recs, rec)
		spans = append(spans, legacySpan{frames: starts[h.firstFrameLine], label: h.bodyStart - len(h.label) - 2, end: end})
	}
	return recs, spans
}

// legacyHeader parses a legacy record header line and returns the offset of
// the body within it.
func legacyHeader(line []byte) (time.Time, string, int, bool) {
	if len(line) == 0 || line[0] != '[' {
		return time.Time{}, "", 0, false
	}
	rb := bytes.IndexByte(line, ']')
	if rb < 0 || rb+1 >= len(line) || line[rb+1] != ' ' {
		return time.Time{}, "", 0, false
	}
	t, err := time.Parse(time.RFC3339, string(line[1:rb]))
	if err != nil {
		return time.Time{}, "", 0, false
	}
	rest := line[rb+2:]
	i := bytes.Index(rest, []byte(": "))
	if i <= 0 {
		return time.Time{}, "", 0, false
	}
	return t.UTC(), string(rest[:i]), rb + 2 + i + 2, true
}

// isLegacyFrameLine reports whether line is one that older writers put above
// a record header: an anchor or a frame comment. A trailing CR is tolerated.
func isLegacyFrameLine(line []byte) bool {
	s := string(bytes.TrimSuffix(line, []byte{'\r'}))
	if id, ok := cutAround(s, `<a id="`, `"></a>`); ok {
		return strings.HasPrefix(id, "source-") && !strings.Contains(id, `"`)
	}
	inner, ok := cutAround(s, "<!-- ", commentSuffix)
	if !ok {
		return false
	}
	key, _, ok := strings.Cut(inner, ":")
	if !ok {
		return false
	}
	switch key {
	case "source-id", "speaker-id", "trust", "record-lines":
		return true
	}
	return false
}

// legacyHint reads "[<display> (<id>)]" at the start of the first body line.
// The display may itself hold " (", so the id is after the last one.
func legacyHint(content string) (display, id string, ok bool) {
	first, _, _ := strings.Cut(content, "\n")
	if !strings.HasPrefix(first, "[") {
		return "", "", false
	}
	inner, _, found := strings.Cut(first[1:], "]")
	if !found || !strings.HasSuffix(inner, ")") {
		return "", "", false
	}
	i := strings.LastIndex(inner, " (")
	if i <= 0 {
		return "", "", false
	}
	display, id = inner[:i], inner[i+2:len(inner)-1]
	if id == "" {
		return "", "", false
	}
	return display, id, true
}
