package index

import (
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
)

// Equal ranks come back in id order, and every search returns the same
// hits whatever the index's segment layout. bleve can sort on the
// document id (search.SortDocID), but then it loads the external id of
// every matching document, not just of the hits it returns: that made a
// top-10 query almost twice as slow (BENCHMARKS.md, "The index: tie-break
// and analysis"). Left to itself bleve breaks ties by the order it met the
// documents in, which moves with merges and with the order of a rebuild.
//
// So top asks bleve for the rank order alone (score, or date then score),
// with tieSlack hits past the limit, and sorts those by rank then id. That
// is the exact answer whenever the last hit it got ranks strictly below the
// last one it keeps: then every match that ranks as high as a kept hit is
// among those it got. Otherwise the tie at the cut-off may go on past what
// bleve returned, and top asks once more in rank order for tieWiden times
// as many, which settles most ties the same way; only a tie longer still
// is asked in the exact order, id included. The asks in rank order load
// no stored fields: those are loaded for the kept hits alone, as bleve
// would have (an English prompt's tie at 100k cost a second, id-sorted
// search: BENCHMARKS.md, "A resident serve at rest").

// tieSlack is how many hits past the limit top asks for, so that a tie at
// the cut-off can usually be settled without a second search.
const tieSlack = 5

// tieWiden is how many times more hits top asks for, in rank order, when
// tieSlack did not settle a tie.
const tieWiden = 4

// top returns the first limit hits of req's query in rank order (score, or
// time then score when byDate), equal ranks by id, with req's stored
// fields. req's size and sort are ignored. Called with mu held.
func (ix *Index) top(req *bleve.SearchRequest, limit int, byDate bool) ([]*search.DocumentMatch, error) {
	cmp := func(a, b *search.DocumentMatch) int {
		if c := compareRank(a, b, byDate); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	// A batch committed beside the search (Apply holds mu shared) could
	// give the hits the fields of another snapshot: then bleve loads
	// them itself, in the search's own.
	if hits, ok, err := ix.prunedTop(req, limit, byDate); ok || err != nil {
		return hits, err
	}
	seq := ix.batches.Load()
	if seq%2 == 1 {
		return ix.topWithFields(req, limit, byDate, cmp)
	}
	fast := *req
	fast.Fields = nil
	fast.SortByCustom(rankOrder(byDate))
	for _, size := range []int{limit + tieSlack, tieWiden * (limit + tieSlack)} {
		fast.Size = size
		res, err := ix.idx.Search(&fast)
		if err != nil {
			return nil, err
		}
		hits := res.Hits
		if len(hits) < fast.Size || compareRank(hits[limit-1], hits[len(hits)-1], byDate) != 0 {
			slices.SortFunc(hits, cmp)
			hits = hits[:min(limit, len(hits))]
			if err := ix.loadFields(hits, req); err != nil {
				return nil, err
			}
			if ix.batches.Load() != seq {
				return ix.topWithFields(req, limit, byDate, cmp)
			}
			return hits, nil
		}
		ix.tieFallbacks.Add(1)
	}
	return ix.exactTop(req, limit, byDate)
}

// topWithFields is top as it was before the fields were loaded apart:
// one search in rank order with the fields, then the exact order if the
// tie at the cut-off goes past it.
func (ix *Index) topWithFields(req *bleve.SearchRequest, limit int, byDate bool, cmp func(a, b *search.DocumentMatch) int) ([]*search.DocumentMatch, error) {
	fast := *req
	fast.Size = limit + tieSlack
	fast.SortByCustom(rankOrder(byDate))
	res, err := ix.idx.Search(&fast)
	if err != nil {
		return nil, err
	}
	hits := res.Hits
	if len(hits) < fast.Size || compareRank(hits[limit-1], hits[len(hits)-1], byDate) != 0 {
		slices.SortFunc(hits, cmp)
		return hits[:min(limit, len(hits))], nil
	}
	return ix.exactTop(req, limit, byDate)
}

// exactTop asks bleve for the exact order, id included.
func (ix *Index) exactTop(req *bleve.SearchRequest, limit int, byDate bool) ([]*search.DocumentMatch, error) {
	ix.exactSorts.Add(1)
	exact := *req
	exact.Size = limit
	exact.SortByCustom(append(rankOrder(byDate), &search.SortDocID{}))
	res, err := ix.idx.Search(&exact)
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
}

// loadFields loads req's stored fields into hits, as bleve's search does
// for the hits it returns. Called with mu held.
func (ix *Index) loadFields(hits []*search.DocumentMatch, req *bleve.SearchRequest) error {
	if len(hits) == 0 || len(req.Fields) == 0 {
		return nil
	}
	adv, err := ix.idx.Advanced()
	if err != nil {
		return err
	}
	r, err := adv.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	for _, h := range hits {
		if err, _ := bleve.LoadAndHighlightFields(h, req, "", r, nil); err != nil {
			return err
		}
	}
	return nil
}

// rankOrder is the bleve sort of a rank without the id: best score first,
// or newest first (undated last) then best score.
func rankOrder(byDate bool) search.SortOrder {
	if !byDate {
		return search.SortOrder{&search.SortScore{Desc: true}}
	}
	return search.SortOrder{
		&search.SortField{Field: fieldTime, Desc: true, Type: search.SortFieldAsNumber, Missing: search.SortFieldMissingLast},
		&search.SortScore{Desc: true},
	}
}

// compareRank orders two hits of one rankOrder search as bleve does: a
// negative result puts a first. The date is compared in bleve's own sort
// value (Sort[0]), which also places undated documents.
func compareRank(a, b *search.DocumentMatch, byDate bool) int {
	if byDate {
		if c := strings.Compare(a.Sort[0], b.Sort[0]); c != 0 {
			return -c
		}
	}
	switch {
	case a.Score > b.Score:
		return -1
	case a.Score < b.Score:
		return 1
	}
	return 0
}
