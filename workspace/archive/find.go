package archive

import (
	"bytes"
	"strings"
)

// FindFrame returns the first frame of a v2 archive whose anchor is
// anchor ("source-xxxxxxxx"), without parsing the frames before it: they
// are stepped over by their header lines and record-lines counts, never by
// looking at record text, so a record body that looks like a frame is
// still body. Only the frame found is parsed and validated in full.
//
// Stepping over does not validate, so FindFrame is exact only within the
// valid prefix of the archive (the frames ParseV2 returns). Its caller is
// the search, which looks up records an index built from this very file
// version holds: they lie in that prefix by construction.
func FindFrame(data []byte, anchor string) (Frame, bool) {
	if !IsV2(data) {
		return Frame{}, false
	}
	r := &lineReader{data: data, line: 1, pos: len(Marker)}
	if r.eof() {
		return Frame{}, false
	}
	r.pos++ // the marker's LF
	want := anchorPrefix + strings.TrimPrefix(anchor, "source-") + anchorSuffix
	for !r.eof() {
		if sep, _, _ := r.next(); len(sep) != 0 || r.eof() {
			return Frame{}, false
		}
		at, atLine := r.pos, r.line
		head, _, _ := r.next()
		if string(head) == want {
			r.pos, r.line = at, atLine
			f, _, err := r.frame()
			return f, err == nil
		}
		if !r.skipFrameRest() {
			return Frame{}, false
		}
	}
	return Frame{}, false
}

// skipFrameRest steps over the rest of a frame whose anchor line has just
// been read: the source-id line, then a tombstone's forgotten line, or the
// optional speaker-id and trust lines, the record-lines line and as many
// record lines as it counts.
func (r *lineReader) skipFrameRest() bool {
	if _, _, ok := r.next(); !ok { // source-id
		return false
	}
	if bytes.HasPrefix(r.data[r.pos:], []byte(forgottenPrefix)) {
		_, _, ok := r.next()
		return ok
	}
	for {
		line, _, ok := r.next()
		if !ok {
			return false
		}
		digits, isCount := cutAround(string(line), recordLinesPrefix, commentSuffix)
		if !isCount {
			continue // speaker-id or trust
		}
		n, ok := parseCount(digits)
		if !ok {
			return false
		}
		for i := 0; i < n; i++ {
			if _, _, ok := r.next(); !ok {
				return false
			}
		}
		return true
	}
}
