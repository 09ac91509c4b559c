package archive

import "strings"

// A search hit needs one record of an archive. The index keeps where each
// record's frame lies in the version it indexed (FrameSpans), so the
// search reads those bytes alone (FrameAt) instead of the archive from its
// start up to the frame.

// Span is the byte range of a frame in its archive: from its anchor line
// to the end of its last line, LF included.
type Span struct{ Off, Len int }

// FrameSpans returns the span of the first frame of each anchor of a v2
// archive, found as FindFrame finds it: the frames stepped over by their
// header lines and record-lines counts, no record text looked at. Like
// FindFrame it is exact only within the archive's valid prefix; a span
// from beyond it fails FrameAt's checks. Not a v2 archive: nil.
func FrameSpans(data []byte) map[string]Span {
	if !IsV2(data) {
		return nil
	}
	out := map[string]Span{}
	r := &lineReader{data: data, line: 1, pos: len(Marker)}
	if r.eof() {
		return out
	}
	r.pos++ // the marker's LF
	for !r.eof() {
		if sep, _, _ := r.next(); len(sep) != 0 || r.eof() {
			return out
		}
		at := r.pos
		head, _, _ := r.next()
		hexPart, ok := cutAround(string(head), anchorPrefix, anchorSuffix)
		if !ok || !r.skipFrameRest() {
			return out
		}
		if a := "source-" + hexPart; out[a] == (Span{}) {
			out[a] = Span{Off: at, Len: r.pos - at}
		}
	}
	return out
}

// FrameAt parses the bytes of one frame, as read at a span FrameSpans
// gave; last says the span ends the file, the one place a frame may end
// without its LF. ok only when they are exactly one valid frame of that
// anchor. The frame's strings are copied out of data, which the caller
// may reuse; its Line is 0 (its place is the span).
func FrameAt(data []byte, anchor string, last bool) (Frame, bool) {
	r := &lineReader{data: data}
	f, end, err := r.frame()
	if err != nil || f.Anchor != anchor || r.pos != len(data) || (end == endNoLF && !last) {
		return Frame{}, false
	}
	f.Line = 0
	f.SourceID, f.Anchor, f.SpeakerID = strings.Clone(f.SourceID), strings.Clone(f.Anchor), strings.Clone(f.SpeakerID)
	f.Text, f.Label, f.Content = strings.Clone(f.Text), strings.Clone(f.Label), strings.Clone(f.Content)
	return f, true
}
