package index

import (
	"context"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"scriptorium/engine/index/topk"
)

// prunedTop answers top's question with a pruning top-k (engine/index/topk)
// when the query is one it reproduces exactly: a disjunction of term
// lookups scored by rank alone, with our corpus totals, no explanation.
// A Chinese prompt's common characters (明, 天: a fifth of the documents
// each) made bleve walk every posting (BENCHMARKS.md, "The Chinese prompt:
// a pruning top-k"). The hits, their scores, their order and their stored
// fields are bleve's; ok is false when it did not answer. One reader
// serves the walk, the ids and the fields, so they are of one snapshot.
// Called with mu held.
func (ix *Index) prunedTop(req *bleve.SearchRequest, limit int, byDate bool) ([]*search.DocumentMatch, bool, error) {
	if ix.noPruning || byDate || req.Explain || req.Score != "" || len(req.Facets) > 0 || req.Highlight != nil || req.IncludeLocations {
		return nil, false, nil
	}
	if m, ok := ix.idx.Mapping().(*mapping.IndexMappingImpl); !ok || m.ScoringModel != bleveindex.BM25Scoring {
		return nil, false, nil // the bounds are BM25's
	}
	stats, _ := req.PreSearchData[search.BM25PreSearchDataKey].(*search.BM25Stats)
	if stats == nil || stats.DocCount <= 0 {
		return nil, false, nil
	}
	adv, err := ix.idx.Advanced()
	if err != nil {
		return nil, false, err
	}
	r, err := adv.Reader()
	if err != nil {
		return nil, false, err
	}
	defer r.Close()
	// The context bleve's SearchInContext gives its searchers.
	ctx := context.WithValue(context.Background(), search.GetScoringModelCallbackKey,
		search.GetScoringModelCallbackFn(func() string { return bleveindex.BM25Scoring }))
	ctx = context.WithValue(ctx, search.BM25StatsKey, stats)
	ms, st, ok, err := topk.Search(ctx, r, req.Query, limit)
	if !ok || err != nil {
		return nil, false, err
	}
	ix.pruned.Add(int64(st.Pruned))
	ix.prunedAnswers.Add(1)
	hits := make([]*search.DocumentMatch, len(ms))
	for i, m := range ms {
		hits[i] = &search.DocumentMatch{ID: m.ID, IndexInternalID: m.Internal, Score: m.Score}
		if err, _ := bleve.LoadAndHighlightFields(hits[i], req, "", r, nil); err != nil {
			return nil, false, err
		}
	}
	return hits, true, nil
}
