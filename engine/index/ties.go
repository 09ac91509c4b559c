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
// bleve returned, and top asks again in the exact order, id included.

// tieSlack is how many hits past the limit top asks for, so that a tie at
// the cut-off can usually be settled without a second search.
const tieSlack = 5

// top returns the first limit hits of req's query in rank order (score, or
// time then score when byDate), equal ranks by id. req's size and sort are
// ignored. Called with mu held.
func (ix *Index) top(req *bleve.SearchRequest, limit int, byDate bool) ([]*search.DocumentMatch, error) {
	fast := *req
	fast.Size = limit + tieSlack
	fast.SortByCustom(rankOrder(byDate))
	res, err := ix.idx.Search(&fast)
	if err != nil {
		return nil, err
	}
	hits := res.Hits
	cmp := func(a, b *search.DocumentMatch) int {
		if c := compareRank(a, b, byDate); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	if len(hits) < fast.Size || compareRank(hits[limit-1], hits[len(hits)-1], byDate) != 0 {
		slices.SortFunc(hits, cmp)
		return hits[:min(limit, len(hits))], nil
	}
	ix.tieFallbacks.Add(1)
	exact := *req
	exact.Size = limit
	exact.SortByCustom(append(rankOrder(byDate), &search.SortDocID{}))
	res, err = ix.idx.Search(&exact)
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
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
