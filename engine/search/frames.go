package search

import (
	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/workspace/archive"
)

// A hit's text is its record's content, read from the archive the index
// describes. Each v2 record's document carries where its frame lies in
// that archive version (index.Doc.Frame), found from the bytes the corpus
// holds, so a search reads the frame alone with one pread (hitframes.go)
// instead of the archive from its start.

// withFrames sets the frame span of every v2 source document in docs,
// scanning each archive they come from once (archive.FrameSpans steps
// over the frames by their headers). A document whose frame is not found
// keeps a zero span and is read as before.
func withFrames(c engine.Corpus, docs map[string]index.Doc) {
	spans := map[string]map[string]archive.Span{}
	for id, d := range docs {
		if d.Kind != index.KindSource {
			continue
		}
		of, ok := spans[d.Path]
		if !ok {
			if _, _, v2, inLayout := archive.PathParts(d.Path); inLayout && v2 {
				if data, ok := c.Content(d.Path); ok {
					of = archive.FrameSpans(data)
				}
			}
			spans[d.Path] = of
		}
		if sp, ok := of[d.Anchor]; ok && sp != d.Frame {
			d.Frame = sp
			docs[id] = d
		}
	}
}
