package search

import (
	"context"
	"os"
	"path/filepath"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
)

// A search needs the whole workspace only to bring the index up to date.
// When the index already is a fresh build of the files on disk (the same
// signatures, racy files unchanged, the same promotions), the answer comes
// from the index and only the files holding a hit are read, for their
// snippets (engine.Listing): a stat walk instead of reading and parsing
// everything.

// searchFromFiles answers a BM25 query from a fresh index. ok is false
// when the index is not fresh, or anything went wrong: the caller then
// takes the full path, which rebuilds or repairs and reports errors.
func (st *state) searchFromFiles(ctx context.Context, e *engine.Engine, iq index.Query, query string) (results []result.SearchResult, ok bool) {
	l, ok := e.List(ctx)
	if !ok {
		return nil, false
	}
	ix, err := st.openReadOnly()
	if err != nil {
		return nil, false
	}
	defer ix.Close()
	if !ix.Describes(l.Fingerprint(), diskContent(e.Root())) {
		return nil, false
	}
	hits, err := ix.Search(iq)
	if err != nil {
		return nil, false
	}
	texts, ok := l.HitTexts(hits)
	if !ok {
		return nil, false
	}
	results = make([]result.SearchResult, 0, len(hits))
	for i, h := range hits {
		results = append(results, hitResult(h, query, texts[i]))
	}
	st.fast.Add(1)
	return results, true
}

// diskContent reads a file's bytes from the workspace.
func diskContent(root string) func(p string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return data, err == nil
	}
}
