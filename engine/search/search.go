// Package search is the search service: the glue between the core's
// snapshot (engine.Corpus, engine.Listing) and the BM25 index
// (engine/index) and the embeddings ranking (engine/vectors). It opens the
// index, keeps it in step with the files (a rebuild, a resync of what
// changed, or an install's difference), answers from an index it could
// not bring up to date when another process holds it, keeps a long-lived
// engine's read-only handle, and fuses BM25 with vectors. It registers
// itself with the core at init (engine.RegisterSearcher), which calls it
// for Engine.Search and after every install.
package search

import (
	"context"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
)

func init() { engine.RegisterSearcher(service{}) }

// service implements engine.Searcher; its state lives with each engine.
type service struct{}

// state is what the service keeps with one engine (engine.Attached).
type state struct {
	dir      string       // the index directory
	rebuilds atomic.Int64 // full index rebuilds, for tests
	resynced atomic.Int64 // documents re-indexed by resyncs (resync.go), for tests
	stale    atomic.Int64 // searches answered from an index not brought up to date (stale.go)
	fast     atomic.Int64 // searches answered without a snapshot (fast.go), for tests
	walks    atomic.Int64 // stat walks checking the index's freshness (fast.go, recall.go), for tests
	framed   atomic.Int64 // hit frames read alone at their index spans (hitframes.go), for tests
	emb      vectors.Searcher
	reader   indexReader // a long-lived engine's read-only handle (reader.go)
	hold     writeHold   // the writable handle kept between installs (hold.go)
	kept     kept        // a cold search's fresh walk and index, for the recall's trust lookup (kept.go)
}

// Close releases the held handles (Engine.Close).
func (st *state) Close() error {
	st.hold.drop()
	st.reader.close()
	st.kept.drop()
	return nil
}

const stateKey = "engine/search"

func stateOf(e *engine.Engine) *state {
	return e.Attached(stateKey, func() any {
		return &state{dir: workspace.MetaPath(e.Root(), workspace.IndexName)}
	}).(*state)
}

// Stats counts what the service did for an engine (tests read them).
type Stats struct {
	Rebuilds int64 // full index rebuilds
	Resynced int64 // documents re-indexed by resyncs
	Stale    int64 // searches answered from an index not brought up to date
	Fast     int64 // searches answered without reading the workspace
	Walks    int64 // stat walks checking a cold engine's index is fresh
	Framed   int64 // hit records read alone at their frame's span in the index
}

// StatsOf returns the counters of e.
func StatsOf(e *engine.Engine) Stats {
	st := stateOf(e)
	return Stats{Rebuilds: st.rebuilds.Load(), Resynced: st.resynced.Load(), Stale: st.stale.Load(), Fast: st.fast.Load(), Walks: st.walks.Load(), Framed: st.framed.Load()}
}

// StaleSearches counts the searches e answered from an index not brought
// up to date (a caller with a deadline, or another process holding the
// index): the prompt hook says so in its status.
func StaleSearches(e *engine.Engine) int64 { return stateOf(e).stale.Load() }

// SetEmbedProgress sets what is told how far the embedding of documents
// has got (done of total texts) while a search of e fills the vector
// cache; the CLI draws it on a terminal's stderr. nil turns it off.
func SetEmbedProgress(e *engine.Engine, f func(done, total int)) { stateOf(e).emb.SetProgress(f) }

// Search implements engine.Searcher.
func (service) Search(ctx context.Context, e *engine.Engine, q result.SearchQuery) (engine.SearchReport, error) {
	rep := engine.SearchReport{Results: []result.SearchResult{}}
	if err := e.Authorize(trust.OpSearch); err != nil {
		return rep, err
	}
	iq, err := checkQuery(q)
	if err != nil {
		return rep, err
	}
	if rep.Method, err = methodFor(e, q); err != nil {
		return rep, err
	}
	st := stateOf(e)
	st.kept.drop()
	// A cold engine (a one-shot CLI search) answers from a fresh index
	// without reading the workspace; a warm one has its snapshot in memory.
	if rep.Method == vectors.MethodBM25 && !e.Warm() && !e.Options().LongLived {
		if results, ok := st.searchFromFiles(ctx, e, iq, q.Text); ok {
			rep.Results = results
			return rep, nil
		}
	}
	c, err := e.Corpus(ctx)
	if err != nil {
		return rep, err
	}
	var hits []index.Hit
	if rep.Method == vectors.MethodBM25 {
		hits, err = st.searchIndex(ctx, e, c, iq)
	} else {
		hits, rep.Method, rep.Fallback, err = st.searchVectors(ctx, e, c, iq, rep.Method)
	}
	if err != nil {
		return rep, err
	}
	for _, h := range hits {
		rep.Results = append(rep.Results, hitResult(h, q.Text, hitText(c, h)))
	}
	return rep, nil
}

// checkQuery validates a query and converts it for the index. Every
// problem is INVALID_ARGUMENT naming it; no filter is ever ignored.
func checkQuery(q result.SearchQuery) (index.Query, error) {
	var iq index.Query
	text := strings.TrimSpace(q.Text)
	switch {
	case text == "":
		return iq, errcode.Errorf(errcode.InvalidArgument, "empty query")
	case utf8.RuneCountInString(q.Text) > index.MaxQueryRunes:
		return iq, errcode.Errorf(errcode.InvalidArgument, "query is longer than %d characters", index.MaxQueryRunes)
	case !utf8.ValidString(q.Text):
		return iq, errcode.Errorf(errcode.InvalidArgument, "query is not valid UTF-8")
	}
	switch q.Method {
	case "", vectors.MethodBM25, vectors.MethodHybrid:
	case vectors.MethodEmbedding:
		if q.Speaker != "" {
			return iq, errcode.Errorf(errcode.InvalidArgument, "method=embedding cannot filter by speaker: embedding results carry no trusted speaker")
		}
	default:
		return iq, errcode.Errorf(errcode.InvalidArgument, "unknown method %q (want bm25, hybrid or embedding)", q.Method)
	}
	switch q.Sort {
	case "", "score", "date":
	default:
		return iq, errcode.Errorf(errcode.InvalidArgument, "unknown sort %q (want score or date)", q.Sort)
	}
	if q.Limit < 0 || q.Limit > index.MaxLimit {
		return iq, errcode.Errorf(errcode.InvalidArgument, "limit must be between 1 and %d", index.MaxLimit)
	}
	since, err := index.ParseBound(q.Since, false)
	if err != nil {
		return iq, errcode.Errorf(errcode.InvalidArgument, "since %q: want YYYY-MM-DD or an RFC 3339 time", q.Since)
	}
	until, err := index.ParseBound(q.Until, true)
	if err != nil {
		return iq, errcode.Errorf(errcode.InvalidArgument, "until %q: want YYYY-MM-DD or an RFC 3339 time", q.Until)
	}
	if !since.IsZero() && !until.IsZero() && until.Before(since) {
		return iq, errcode.Errorf(errcode.InvalidArgument, "until is before since")
	}
	iq = index.Query{Text: q.Text, Speaker: strings.TrimSpace(q.Speaker), PathPrefix: q.Path,
		Since: since, Until: until, Sort: q.Sort, Limit: q.Limit, Explain: q.Explain}
	if iq.Sort == "" {
		iq.Sort = "score"
	}
	return iq, nil
}

// hitResult is the SPEC §10 result of a hit whose document text is text.
func hitResult(h index.Hit, query, text string) result.SearchResult {
	r := result.SearchResult{Kind: h.Kind, Path: h.Path, Anchor: h.Anchor, Ref: h.Ref, Score: h.Score, Explanation: h.Explanation}
	if !h.Time.IsZero() {
		r.Time = h.Time.UTC().Format(time.RFC3339)
	}
	if h.Kind == index.KindSource {
		id, disp, label, trusted := h.SpeakerID, h.SpeakerDisplay, h.SpeakerLabel, h.SpeakerTrusted
		r.SpeakerID, r.SpeakerDisplay, r.SpeakerLabel, r.SpeakerTrusted = &id, &disp, &label, &trusted
	}
	r.Snippet, r.SnippetComplete = index.MakeSnippet(text, query, index.DefaultSnippetRunes)
	return r
}
