package archive

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// alias is b as a string without copying; b must never change afterwards.
func alias(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// ending says how a valid v2 archive ends, so Append knows what separator
// the next frame needs.
type ending int

const (
	endClean   ending = iota // last line ends in LF: append "\n" + frame
	endNoLF                  // last line lacks its LF: append "\n\n" + frame
	endBlankLn               // one blank line after the last frame: append frame
)

// IsV2 reports whether data starts with the v2 marker line (the marker
// followed by LF or by the end of data).
func IsV2(data []byte) bool {
	rest, ok := bytes.CutPrefix(data, []byte(Marker))
	return ok && (len(rest) == 0 || rest[0] == '\n')
}

// ParseV2 parses a v2 archive. It returns every valid frame before the first
// invalid or truncated one and, for that one, a *FrameError (nil when the
// whole archive is valid). Data without the marker line gives a *FrameError
// at line 1 wrapping ErrNotV2. Parsing never resynchronises: nothing after
// the first problem is read. Duplicate source-ids are not an error here;
// the first frame of a source-id is the one Append de-duplicates against.
//
// A frame's Text (and so Label and Content) shares memory with data, which
// the caller must not modify afterwards: copying every record doubled the
// memory of a loaded workspace.
func ParseV2(data []byte) ([]Frame, error) {
	frames, _, err := parseV2(data)
	if err != nil {
		return frames, err
	}
	return frames, nil
}

// lineReader hands out LF-terminated lines; a CR is part of the line.
type lineReader struct {
	data []byte
	pos  int // offset of the next line
	line int // lines consumed so far: the number of the last line read
}

func (r *lineReader) eof() bool { return r.pos >= len(r.data) }

// next returns the next line without its LF and whether an LF ended it.
// At the end of data it returns ok == false.
func (r *lineReader) next() (line []byte, lf, ok bool) {
	if r.eof() {
		return nil, false, false
	}
	rest := r.data[r.pos:]
	r.line++
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		r.pos += i + 1
		return rest[:i], true, true
	}
	r.pos = len(r.data)
	return rest, false, true
}

func parseV2(data []byte) ([]Frame, ending, *FrameError) { return parseV2Spans(data, nil) }

// span is the byte range of one frame in its archive: from its anchor line
// to the LF that ends it (or the end of the data).
type span struct{ start, end int }

// parseV2Spans is parseV2 that also records, when spans is not nil, the
// byte range of every valid frame.
func parseV2Spans(data []byte, spans *[]span) ([]Frame, ending, *FrameError) {
	frames, end, err := parseFrames(data, spans)
	if len(frames) == 0 {
		frames = nil // no frames is nil, however much room was made
	}
	return frames, end, err
}

func parseFrames(data []byte, spans *[]span) ([]Frame, ending, *FrameError) {
	r := &lineReader{data: data, line: 1}
	if !IsV2(data) {
		return nil, 0, &FrameError{Line: 1, Reason: "missing v2 marker line", err: ErrNotV2}
	}
	r.pos = len(Marker)
	if r.eof() {
		return nil, endNoLF, nil
	}
	r.pos++ // the marker's LF
	// Room for every frame at once (an upper bound: a body may hold an
	// anchor-like line): growing the slice cost a third of the frames'
	// memory at 1M records.
	var frames []Frame
	if n := bytes.Count(data, []byte("\n"+anchorPrefix)); n > 0 {
		frames = make([]Frame, 0, n)
	}
	for {
		if r.eof() {
			return frames, endClean, nil
		}
		sep := r.line + 1
		if line, _, _ := r.next(); len(line) != 0 {
			return frames, 0, invalid(sep, sep, "want a blank line before the next frame")
		}
		if r.eof() {
			return frames, endBlankLn, nil
		}
		at := r.pos
		f, end, ferr := r.frame()
		if ferr != nil {
			return frames, 0, ferr
		}
		frames = append(frames, f)
		if spans != nil {
			*spans = append(*spans, span{at, r.pos})
		}
		if end == endNoLF {
			return frames, endNoLF, nil
		}
	}
}

func invalid(line, frameLine int, format string, args ...any) *FrameError {
	return &FrameError{Line: line, FrameLine: frameLine, Reason: fmt.Sprintf(format, args...), err: ErrInvalidFrame}
}

// frame parses one frame starting at the reader's position (not at EOF).
func (r *lineReader) frame() (Frame, ending, *FrameError) {
	start := r.line + 1
	// header reads one header line, which must be complete.
	header := func(what string) (string, int, *FrameError) {
		line, lf, ok := r.next()
		if !ok || !lf {
			n := r.line
			if !ok {
				n++
			}
			return "", n, invalid(n, start, "truncated frame: missing %s line", what)
		}
		return alias(line), r.line, nil
	}

	line, anchorLine, ferr := header("anchor")
	if ferr != nil {
		return Frame{}, 0, ferr
	}
	hexPart, ok := cutAround(line, anchorPrefix, anchorSuffix)
	if !ok || len(hexPart) != 8 || strings.Trim(hexPart, "0123456789abcdef") != "" {
		return Frame{}, 0, invalid(anchorLine, start, "want an anchor line <a id=\"source-xxxxxxxx\"></a>")
	}

	line, n, ferr := header("source-id")
	if ferr != nil {
		return Frame{}, 0, ferr
	}
	sourceID, ok := cutAround(line, sourceIDPrefix, commentSuffix)
	if !ok {
		return Frame{}, 0, invalid(n, start, "want a source-id comment")
	}
	if err := ValidateSourceID(sourceID); err != nil {
		return Frame{}, 0, invalid(n, start, "%v", err)
	}
	// One hash per frame: the check's and the frame's anchor are one.
	anchor := AnchorFor(sourceID)
	if anchor[len("source-"):] != hexPart {
		return Frame{}, 0, invalid(anchorLine, start, "anchor source-%s does not match source-id %q (want %s)", hexPart, sourceID, anchor)
	}
	// The header lines alias data, as the record text does: a copied line
	// per record cost 51 MB at 1M, a copied source-id 32 MB and 1M objects
	// (issue 26). What keeps a source-id beyond the snapshot that holds
	// the archive copies it (the manifest's summaries).
	f := Frame{SourceID: sourceID, Anchor: anchor, Line: start}

	if bytes.HasPrefix(r.data[r.pos:], []byte(forgottenPrefix)) {
		return r.tombstone(f)
	}
	if line, n, ferr = header("record-lines"); ferr != nil {
		return Frame{}, 0, ferr
	}
	if strings.HasPrefix(line, speakerIDPrefix) {
		enc, ok := cutAround(line, speakerIDPrefix, commentSuffix)
		if !ok {
			return Frame{}, 0, invalid(n, start, "malformed speaker-id comment")
		}
		id, err := DecodeSpeakerID(enc)
		if err != nil {
			return Frame{}, 0, invalid(n, start, "%v", err)
		}
		f.Speaker, f.SpeakerID = SpeakerDisplayOnly, id
		if id != "" {
			f.Speaker = SpeakerWithID
		}
		if line, n, ferr = header("record-lines"); ferr != nil {
			return Frame{}, 0, ferr
		}
	}
	if strings.HasPrefix(line, trustPrefix) {
		if line != pendingLine {
			return Frame{}, 0, invalid(n, start, "unknown trust marker (only trust:pending exists)")
		}
		f.Pending = true
		if line, n, ferr = header("record-lines"); ferr != nil {
			return Frame{}, 0, ferr
		}
	}
	digits, ok := cutAround(line, recordLinesPrefix, commentSuffix)
	if !ok {
		return Frame{}, 0, invalid(n, start, "want a record-lines comment")
	}
	count, ok := parseCount(digits)
	if !ok {
		return Frame{}, 0, invalid(n, start, "record-lines %q is not a positive decimal without leading zeros", digits)
	}
	f.RecordLines = count

	// The record text is skipped by counting LFs, never by looking at it.
	textLine := r.line + 1
	textStart := r.pos
	if r.eof() {
		return Frame{}, 0, invalid(textLine, start, "truncated frame: missing record text")
	}
	p := textStart
	for i := 1; i < count; i++ {
		j := bytes.IndexByte(r.data[p:], '\n')
		if j < 0 {
			return Frame{}, 0, invalid(textLine, start, "truncated record: record-lines:%d but the file ends after %d lines", count, i)
		}
		p += j + 1
	}
	end := endClean
	if j := bytes.IndexByte(r.data[p:], '\n'); j >= 0 {
		f.Text = alias(r.data[textStart : p+j])
		r.pos = p + j + 1
	} else {
		// The last line lacks its LF; it still holds all count lines.
		f.Text = alias(r.data[textStart:])
		r.pos = len(r.data)
		end = endNoLF
	}
	r.line = textLine + count - 1

	t, label, content, reason := splitRecordText(f.Text)
	if reason != "" {
		return Frame{}, 0, invalid(textLine, start, "%s", reason)
	}
	f.Time, f.Label, f.Content = t, label, content
	return f, end, nil
}

// tombstone finishes a tombstone frame at its forgotten line: the record's
// time in the canonical layout, and nothing after it. Like a record text,
// the line may lack its LF at the end of the file.
func (r *lineReader) tombstone(f Frame) (Frame, ending, *FrameError) {
	line, lf, _ := r.next()
	stamp, ok := cutAround(string(line), forgottenPrefix, commentSuffix)
	if !ok {
		return Frame{}, 0, invalid(r.line, f.Line, "malformed forgotten comment")
	}
	t, err := time.Parse(TimeLayout, stamp)
	if err != nil || t.Format(TimeLayout) != stamp {
		return Frame{}, 0, invalid(r.line, f.Line, "forgotten time %q is not RFC 3339 UTC to the second with Z", stamp)
	}
	f.Time, f.Forgotten = t, true
	if !lf {
		return f, endNoLF, nil
	}
	return f, endClean, nil
}

// cutAround returns what lies between prefix and suffix when line is exactly
// prefix + value + suffix.
func cutAround(line, prefix, suffix string) (string, bool) {
	if len(line) < len(prefix)+len(suffix) || !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, suffix) {
		return "", false
	}
	return line[len(prefix) : len(line)-len(suffix)], true
}

// parseCount parses a positive decimal without sign or leading zeros.
func parseCount(s string) (int, bool) {
	if s == "" || s[0] == '0' || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// splitRecordText splits "[<time>] <label>: <content>". The label ends at
// the first ": " of the first line and must not be empty. reason is "" when
// the text is well formed.
func splitRecordText(text string) (t time.Time, label, content, reason string) {
	const stampEnd = 1 + len(TimeLayout)
	if len(text) < stampEnd+2 || text[0] != '[' || text[stampEnd] != ']' || text[stampEnd+1] != ' ' {
		return time.Time{}, "", "", "record text does not start with \"[<time>] \""
	}
	stamp := text[1:stampEnd]
	t, ok := parseCanonicalTime(stamp)
	if !ok {
		return time.Time{}, "", "", fmt.Sprintf("record time %q is not RFC 3339 UTC to the second with Z", stamp)
	}
	rest := text[stampEnd+2:]
	first, _, _ := strings.Cut(rest, "\n")
	i := strings.Index(first, ": ")
	switch {
	case i < 0:
		return time.Time{}, "", "", "record header has no \"<label>: \""
	case i == 0:
		return time.Time{}, "", "", "record header has an empty label"
	}
	return t, rest[:i], rest[i+2:], ""
}

// parseCanonicalTime is time.Parse(TimeLayout, s) that also requires s to
// be what Format gives back, without Parse and Format: they were a
// quarter of an archive's parse (issue 26, a fresh update parses every
// record). TestParseCanonicalTime_MatchesParseAndFormat holds it to them.
func parseCanonicalTime(s string) (time.Time, bool) {
	if len(s) != len(TimeLayout) {
		return time.Time{}, false
	}
	num := func(i, n int) int {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return -1
			}
			v = v*10 + int(c-'0')
		}
		return v
	}
	if s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z' {
		return time.Time{}, false
	}
	y, mo, d, h, mi, sec := num(0, 4), num(5, 2), num(8, 2), num(11, 2), num(14, 2), num(17, 2)
	if y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
	if t.Day() != d { // past the month's end (Date would roll it over)
		return time.Time{}, false
	}
	return t, true
}
