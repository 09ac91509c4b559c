package search

import (
	"context"
	"os"
	"path/filepath"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/topic"
)

// A search needs the whole workspace only to bring the index up to date.
// When the index already is a fresh build of the files on disk (the same
// signatures, racy files unchanged, the same promotions), the answer comes
// from the index and only the files holding a hit are read, for their
// snippets: a stat walk instead of reading and parsing everything.

// searchFromFiles answers a BM25 query from a fresh index. ok is false
// when the index is not fresh, or anything went wrong: the caller then
// takes the full path, which rebuilds or repairs and reports errors.
func (st *state) searchFromFiles(ctx context.Context, e *engine.Engine, iq index.Query, query string) (results []result.SearchResult, ok bool) {
	r, ok := walkFresh(ctx, e, st)
	if !ok {
		return nil, false
	}
	keep := false
	defer func() {
		if !keep {
			_ = r.ix.Close()
		}
	}()
	root := e.Root()
	hits, err := r.ix.Search(iq)
	if err != nil {
		return nil, false
	}
	hf, ok := loadHitFiles(root, r.listed, hits)
	if !ok {
		return nil, false
	}
	// A recall asks the same index which blocks are trusted next (kept.go).
	keep = true
	r.hits = hf
	st.kept.keep(r)
	st.framed.Add(int64(hf.framed))
	results = make([]result.SearchResult, 0, len(hits))
	for _, h := range hits {
		results = append(results, hitResult(h, query, hf.text(h)))
	}
	st.fast.Add(1)
	return results, true
}

// listFingerprint stats the workspace's memory files and returns their
// signatures by path and the fingerprint a snapshot of them would have.
// Strays do not count (a snapshot skips them too).
func listFingerprint(root string, promoted map[string]bool) (map[string]manifest.Sig, string, bool) {
	topics, _, err := workspace.ListMarkdown(root, "topics")
	if err != nil {
		return nil, "", false
	}
	sources, _, err := workspace.ListMarkdown(root, "sources")
	if err != nil {
		return nil, "", false
	}
	sigs := make(map[string]manifest.Sig, len(topics)+len(sources))
	files := make([]index.FileSig, 0, len(topics)+len(sources))
	add := func(f workspace.Listed) bool {
		if f.Info == nil {
			return false // could not be stat'ed: let the full path say why
		}
		sig := manifest.SigOf(f.Info)
		if sig == (manifest.Sig{}) {
			return false
		}
		files = append(files, index.FileSig{Path: f.Path, Sig: sig})
		sigs[f.Path] = sig
		return true
	}
	for _, f := range topics {
		if !add(f) {
			return nil, "", false
		}
	}
	for _, f := range sources {
		if _, _, _, inLayout := archive.PathParts(f.Path); inLayout && !add(f) {
			return nil, "", false
		}
	}
	return sigs, index.Fingerprint(root, files, promoted), true
}

// hitFiles are the files holding a search's hits, read as the stat walk
// saw them: topic files parsed, of v2 archives the content of the hits'
// frames by anchor (FindFrame reads the records needed), legacy archives
// parsed.
type hitFiles struct {
	topics map[string]*topic.File
	v2     map[string]map[string]string
	legacy map[string][]archive.LegacyRecord
	framed int // hit records read at their frame spans
}

// loadHitFiles reads just the files that hold hits, each only if it is
// still the version the stat walk saw (otherwise the index may describe
// another version, and ok is false).
func loadHitFiles(root string, listed map[string]manifest.Sig, hits []index.Hit) (*hitFiles, bool) {
	hf := &hitFiles{topics: map[string]*topic.File{}, v2: map[string]map[string]string{}, legacy: map[string][]archive.LegacyRecord{}}
	anchors := map[string][]string{}              // per v2 archive, its hits' anchors
	spans := map[string]map[string]archive.Span{} // and their frames' spans, nil when one is unknown
	var buf []byte                                // the v2 archives' bytes, one after the other
	for _, h := range hits {
		if _, _, v2, inLayout := archive.PathParts(h.Path); inLayout && v2 && h.Kind == index.KindSource {
			if _, seen := anchors[h.Path]; !seen {
				spans[h.Path] = map[string]archive.Span{}
			}
			anchors[h.Path] = append(anchors[h.Path], h.Anchor)
			if h.Frame.Len == 0 || spans[h.Path] == nil {
				spans[h.Path] = nil
			} else if _, dup := spans[h.Path][h.Anchor]; !dup {
				spans[h.Path][h.Anchor] = h.Frame
			}
		}
	}
	for _, h := range hits {
		if hf.has(h.Path) {
			continue
		}
		want, ok := listed[h.Path]
		if !ok {
			return nil, false
		}
		path := filepath.Join(root, filepath.FromSlash(h.Path))
		if as := anchors[h.Path]; len(as) > 0 {
			// Read only the hits' frames (hitframes.go), or as far as them
			// (prefix.go).
			if sp := spans[h.Path]; sp != nil {
				if hf.v2[h.Path], ok = frameTextsAt(path, want, sp, &buf); ok {
					hf.framed += len(sp)
					continue
				}
			}
			if hf.v2[h.Path], ok = frameTexts(path, want, as, &buf); !ok {
				return nil, false
			}
			continue
		}
		data, ok := manifest.ReadIfSig(path, want)
		if !ok {
			return nil, false
		}
		if h.Kind != index.KindSource {
			hf.topics[h.Path], _ = topic.Parse(data)
			continue
		}
		_, _, v2, inLayout := archive.PathParts(h.Path)
		switch {
		case !inLayout:
			return nil, false
		case v2:
			return nil, false // a v2 archive's hits are all sources, read above
		default:
			hf.legacy[h.Path] = archive.ParseLegacy(data)
		}
	}
	return hf, true
}

// topic is the parsed topic file p, if the search read it (nil-safe).
func (hf *hitFiles) topic(p string) (*topic.File, bool) {
	if hf == nil {
		return nil, false
	}
	f, ok := hf.topics[p]
	return f, ok && f != nil
}

func (hf *hitFiles) has(p string) bool {
	_, t := hf.topics[p]
	_, v := hf.v2[p]
	_, l := hf.legacy[p]
	return t || v || l
}

// text is the text of a hit's document. The index describes exactly these
// file versions, so the record at the hit's anchor is the one it indexed
// (for duplicates in one archive, the first: the one preferred for its
// source-id).
func (hf *hitFiles) text(h index.Hit) string {
	if h.Kind != index.KindSource {
		if f, ok := hf.topics[h.Path]; ok {
			if b, ok := f.Block(h.Ref); ok {
				return topic.BlockText(b)
			}
		}
		return ""
	}
	if texts, ok := hf.v2[h.Path]; ok {
		return texts[h.Anchor]
	}
	provider, thread, _, _ := archive.PathParts(h.Path)
	for _, r := range hf.legacy[h.Path] {
		if ref, anchor := archive.LegacyID(provider, thread, r); anchor == h.Anchor && ref == h.Ref {
			return r.Content
		}
	}
	return ""
}

// diskContent reads a file's bytes from the workspace.
func diskContent(root string) func(p string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return data, err == nil
	}
}
