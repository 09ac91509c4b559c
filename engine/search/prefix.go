package search

import (
	"bytes"
	"io"
	"os"
	"strings"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/manifest"
)

// A hit in a v2 archive needs one frame, and FindFrame steps over the
// frames before it by their header lines alone: nothing after the frame is
// read. So the search reads an archive from its start only as far as its
// hits' frames lie (the whole file was 9% of a cold recall's CPU at 100k,
// reading, clearing and copying archives of up to 0.9 MB for one record).
//
// A prefix that ends at a line boundary holds every frame it holds at all
// complete (a frame's lines are counted, and each ends in an LF within the
// prefix), so FindFrame finds the same frame in it as in the whole file,
// or none.

// firstRead is the first prefix read; each further read doubles it.
const firstRead = 64 << 10

// frameTexts is the content of the first frame of each anchor in the
// archive at path, read by readFramesIfSig into *buf (reused from one
// archive to the next: a fresh buffer per archive was a cold recall's
// largest allocation, its pages faulted in and cleared again for every
// hit file). An anchor not found has no entry.
func frameTexts(path string, want manifest.Sig, anchors []string, buf *[]byte) (map[string]string, bool) {
	data, ok := readFramesIfSig(path, want, anchors, buf)
	if !ok {
		return nil, false
	}
	texts := make(map[string]string, len(anchors))
	for _, a := range anchors {
		if f, ok := archive.FindFrame(data, a); ok {
			// A frame's strings alias data, which the next archive
			// overwrites.
			texts[a] = strings.Clone(f.Content)
		}
	}
	return texts, true
}

// readFramesIfSig reads the archive at path if it is still the version
// whose signature is want, as far as the first frame of every anchor; the
// whole file if one is missing. ok is false when it is not that version.
// The bytes are read into *into, grown when it is too small.
func readFramesIfSig(path string, want manifest.Sig, anchors []string, into *[]byte) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || manifest.SigOf(fi) != want {
		return nil, false
	}
	// The buffer grows only as far as it is read: a large allocation is
	// cleared whole when its memory is reused.
	size := int(want.Size)
	buf := (*into)[:0]
	for n := 0; n < size; {
		next := min(size, max(2*n, firstRead))
		if cap(buf) < next {
			grown := make([]byte, min(size, max(next, 2*cap(buf))))
			copy(grown, buf[:n])
			buf = grown
			*into = grown
		}
		buf = buf[:next]
		if _, err := io.ReadFull(f, buf[n:next]); err != nil {
			return nil, false // shorter than its signature says
		}
		n = next
		if n == size {
			break // the whole file: checked below as ReadIfSig checks it
		}
		if prefix := buf[:bytes.LastIndexByte(buf[:n], '\n')+1]; holdsAll(prefix, anchors) {
			// Still the version stat'ed at the open (an install renames a
			// new file in; this catches a write in place during the read).
			if fi, err := f.Stat(); err != nil || manifest.SigOf(fi) != want {
				return nil, false
			}
			return prefix, true
		}
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, false
	}
	return buf, true
}

func holdsAll(data []byte, anchors []string) bool {
	for _, a := range anchors {
		if _, ok := archive.FindFrame(data, a); !ok {
			return false
		}
	}
	return true
}
