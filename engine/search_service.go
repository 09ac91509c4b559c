package engine

import (
	"context"
	"io"
	"sync"

	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// Search is a service (engine/search): it owns the index, its documents
// and sync, and the vector fusion. The core keeps what needs a snapshot or
// the journal: the record-level read the documents are built from
// (corpus.go), the fingerprint (freshness.go), and telling the service what
// every install changed. The service registers itself at init, as finish
// steps do (finish.go); a program that links no search service answers
// searches with NOT_CONFIGURED and leaves the index to be brought up to
// date later.

// Searcher is the search service as the core calls it.
type Searcher interface {
	// Search answers a query (SPEC §10) with how it was ranked.
	Search(ctx context.Context, e *Engine, q result.SearchQuery) (SearchReport, error)
	// Installed brings the index from before (nil when unknown) to after,
	// once an install stands. Failures leave the index stale: the next
	// search repairs it.
	Installed(ctx context.Context, e *Engine, before *Corpus, after Corpus)
	// Rebuild replaces the whole index with a build of c.
	Rebuild(ctx context.Context, e *Engine, c Corpus) error
	// IndexState describes the index against the files whose fingerprint
	// is fp (content reads them), changing nothing.
	IndexState(e *Engine, fp string, content func(string) ([]byte, bool)) result.IndexState
	// RecallFiles reads the topic files named, with the trusted ids of
	// their blocks, from a fresh index and the files alone; ok is false
	// when that cannot be done (RecallRead then reads the snapshot).
	RecallFiles(ctx context.Context, e *Engine, paths []string) (map[string]*RecallFile, bool)
}

var searchService struct {
	sync.RWMutex
	s Searcher
}

// RegisterSearcher registers the search service (at init).
func RegisterSearcher(s Searcher) {
	searchService.Lock()
	defer searchService.Unlock()
	searchService.s = s
}

func searcher() Searcher {
	searchService.RLock()
	defer searchService.RUnlock()
	return searchService.s
}

// Explanation is how a search result got its score (SearchQuery.Explain).
type Explanation = index.Explanation

// SearchReport is a search's results and how they were ranked.
type SearchReport struct {
	Results []result.SearchResult `json:"results"`
	// Method is what ranked the results: "bm25", "hybrid" or "embedding".
	Method string `json:"method"`
	// Fallback says why the method asked for (or configured) was not
	// used, when search fell back to BM25: the provider was unreachable.
	Fallback string `json:"fallback,omitempty"`
}

// Search runs a search over trusted blocks and sources (SPEC §10): BM25,
// fused with vector similarity when [embeddings] is configured.
func (e *Engine) Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error) {
	rep, err := e.SearchReport(ctx, q)
	if err != nil {
		return nil, err
	}
	return rep.Results, nil
}

// SearchReport is Search that also says how the results were ranked, and
// why it fell back to BM25 when the embeddings provider failed.
func (e *Engine) SearchReport(ctx context.Context, q result.SearchQuery) (SearchReport, error) {
	s := searcher()
	if s == nil {
		return SearchReport{Results: []result.SearchResult{}}, errcode.Errorf(errcode.NotConfigured, "this program has no search service")
	}
	return s.Search(ctx, e, q)
}

// updateIndex records the manifest of after and has the search service
// apply the difference from before (nil: unknown) to the index, so a fact
// is searchable the moment its install returns.
func (e *Engine) updateIndex(ctx context.Context, before, after *snapshot) {
	e.recordManifest(after)
	s := searcher()
	if s == nil {
		return
	}
	var b *Corpus
	if before != nil {
		b = &Corpus{s: before, root: e.ws.Root()}
	}
	s.Installed(ctx, e, b, Corpus{s: after, root: e.ws.Root()})
}

// indexStateOf describes the index without changing it.
func (e *Engine) indexStateOf(fp string, content func(string) ([]byte, bool)) result.IndexState {
	if s := searcher(); s != nil {
		return s.IndexState(e, fp, content)
	}
	return result.IndexState{Format: index.FormatVersion}
}

// Warm reports whether the engine holds a snapshot in memory: a cold one
// (a one-shot CLI verb) answers what it can without reading the workspace.
func (e *Engine) Warm() bool { return e.warm() }

// Corpus reads the workspace (the snapshot the engine shares) for the
// search service.
func (e *Engine) Corpus(ctx context.Context) (Corpus, error) {
	s, err := e.snapshot(ctx)
	if err != nil {
		return Corpus{}, err
	}
	return Corpus{s: s, root: e.ws.Root()}, nil
}

// Attached returns the value a service keeps with this engine under key
// (its handles, caches and counters), made by mk on first use. Close
// closes every attached io.Closer.
func (e *Engine) Attached(key string, mk func() any) any {
	e.attachMu.Lock()
	defer e.attachMu.Unlock()
	if v, ok := e.attached[key]; ok {
		return v
	}
	if e.attached == nil {
		e.attached = map[string]any{}
	}
	v := mk()
	e.attached[key] = v
	return v
}

// closeAttached closes what services attached to the engine.
func (e *Engine) closeAttached() {
	e.attachMu.Lock()
	defer e.attachMu.Unlock()
	for _, v := range e.attached {
		if c, ok := v.(io.Closer); ok {
			_ = c.Close()
		}
	}
}
