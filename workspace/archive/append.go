package archive

import (
	"bytes"
	"fmt"
)

// Append returns existing with recs appended as v2 frames, and the frames it
// added (with their Line in out).
//
// An empty existing starts a new archive. Records whose source-id is already
// in a valid frame of existing, or earlier in recs, are skipped: the first
// copy of a source-id wins. Existing bytes are kept exactly (out starts with
// them), except that a last line missing its LF gets one before the next
// frame. When nothing is added, out is existing itself, so callers can skip
// the write.
//
// Append refuses the whole batch when any record fails Validate (wrapping
// ErrInvalidRecord) and when existing is not a fully valid v2 archive (the
// error wraps the *FrameError): frames written after an invalid frame could
// never be read, and rewriting the invalid bytes would lose them.
func Append(existing []byte, recs []Record) (out []byte, added []Frame, err error) {
	for i, rec := range recs {
		if err := rec.Validate(); err != nil {
			return nil, nil, fmt.Errorf("append record %d: %w", i, err)
		}
	}
	base, end := []byte(Marker+"\n"), endClean
	known := make(map[string]bool)
	if len(existing) > 0 {
		frames, e, ferr := parseV2(existing)
		if ferr != nil {
			return nil, nil, fmt.Errorf("append to v2 archive: %w", ferr)
		}
		for _, f := range frames {
			known[f.SourceID] = true
		}
		base, end = existing, e
	}

	var news []Frame
	for _, rec := range recs {
		if known[rec.SourceID] {
			continue
		}
		known[rec.SourceID] = true
		news = append(news, rec.Frame())
	}
	if len(news) == 0 {
		return existing, nil, nil
	}

	size := len(base) + 1
	for _, f := range news {
		size += len(f.Text) + len(f.SourceID) + len(f.SpeakerID)*3 + 160
	}
	out = make([]byte, 0, size)
	out = append(out, base...)
	switch end {
	case endNoLF:
		out = append(out, '\n')
	case endBlankLn:
		// The trailing blank line already separates the first new frame: drop
		// its LF here, and the loop's first separator writes it back, so the
		// existing bytes stay exactly as they were.
		out = out[:len(out)-1]
	}
	lines := bytes.Count(out, []byte{'\n'})
	for i := range news {
		out = append(out, '\n')
		lines++
		news[i].Line = lines + 1
		mark := len(out)
		out = news[i].appendTo(out)
		lines += bytes.Count(out[mark:], []byte{'\n'})
	}
	return out, news, nil
}
