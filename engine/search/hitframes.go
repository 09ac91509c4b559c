package search

import (
	"os"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/manifest"
)

// frameTextsAt is frameTexts through the index's frame spans: each hit's
// frame read alone (one pread) into *buf and parsed, the archive only if
// it is still the version whose signature is want, before and after the
// reads. ok is false when it is not, or when any span does not hold
// exactly one valid frame of its anchor (archive.FrameAt): the caller
// then reads as far as the frames instead.
func frameTextsAt(path string, want manifest.Sig, spans map[string]archive.Span, buf *[]byte) (map[string]string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || manifest.SigOf(fi) != want {
		return nil, false
	}
	texts := make(map[string]string, len(spans))
	for anchor, sp := range spans {
		end := sp.Off + sp.Len
		if sp.Off < 0 || sp.Len <= 0 || int64(end) > want.Size {
			return nil, false
		}
		if cap(*buf) < sp.Len {
			*buf = make([]byte, sp.Len)
		}
		b := (*buf)[:sp.Len]
		if _, err := f.ReadAt(b, int64(sp.Off)); err != nil {
			return nil, false
		}
		fr, ok := archive.FrameAt(b, anchor, int64(end) == want.Size)
		if !ok {
			return nil, false
		}
		texts[anchor] = fr.Content
	}
	// Still the version stat'ed at the open (a write in place during the
	// reads changes it).
	if fi, err := f.Stat(); err != nil || manifest.SigOf(fi) != want {
		return nil, false
	}
	return texts, true
}
