// Package topk is a pruning top-k (MaxScore) over a disjunction of term
// queries that returns exactly bleve's answer: the same documents with
// bit-identical scores, equal scores in external-id order.
//
// bleve's disjunction walks every posting of every term: a prompt with a
// common word ("明天" is in a fifth of the documents) pays for all of them
// whatever the collector keeps. MaxScore orders the terms by the most
// each can add to a score; once the k-th best score seen is above what a
// document matching only the weakest terms could reach, those terms stop
// proposing documents and are only advanced to the ones the others
// propose (their postings skipped, not read).
//
// Identity is by construction: the term scores are bleve's own term
// searchers' (built with bleve's context, so the same BM25 statistics and
// query norm), and they are summed and coordinated exactly as bleve's
// DisjunctionSliceSearcher does (children ordered by sort.Sort on their
// posting counts, summed from 0 in that order, times
// float64(matched)/float64(children), inner disjunction first). A shape
// it does not reproduce (a disjunction large enough for bleve's heap
// searcher, whose summing order depends on its heap; a filter; anything
// but term queries) is refused and the caller asks bleve.
package topk

import (
	"bytes"
	"context"
	"math"
	"sort"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// slack widens every upper bound: a term's score is below k1·(its
// weight) by a relative margin far above rounding (the saturation's
// denominator exceeds tf by at least k1·(1−b)), and this keeps the
// comparisons with rounded sums on the safe side.
const slack = 1 + 1e-9

// node is one child of a disjunction: a term (leaf ≥ 0) or an inner
// disjunction of terms.
type node struct {
	leaf   int   // index into leaves, or -1
	kids   []int // an inner disjunction's leaves, in bleve's order
	weight float64
	count  uint64
}

// leaf is one term searcher and what it can add to a score at most.
type leaf struct {
	s     search.Searcher
	boost float64
	ub    float64
	curr  *search.DocumentMatch
	done  bool
	group int // the outer child it belongs to
}

// Match is one hit: bleve's internal and external ids and its score.
type Match struct {
	Internal index.IndexInternalID
	ID       string
	Score    float64
}

// Stats says what a search did, for tests and benchmarks.
type Stats struct {
	Scored int // documents scored
	Pruned int // documents proposed but skipped on their bound
}

// Search returns the first k matches of q in r, best score first, equal
// scores by external id. ok is false when q is not a shape it reproduces
// exactly; nothing was searched then. ctx must be the context bleve's
// search would build its searchers with (the scoring model and the BM25
// statistics).
func Search(ctx context.Context, r index.IndexReader, q query.Query, k int) (hits []Match, st Stats, ok bool, err error) {
	outer, shapeOK := q.(*query.DisjunctionQuery)
	if !shapeOK || !supported(outer) || k <= 0 {
		return nil, st, false, nil
	}
	var leaves []*leaf
	defer func() {
		for _, l := range leaves {
			_ = l.s.Close()
		}
	}()
	opts := search.SearcherOptions{}
	newLeaf := func(tq *query.TermQuery, group int) (int, error) {
		s, err := searcher.NewTermSearcher(ctx, r, tq.Term, tq.FieldVal, tq.BoostVal.Value(), opts)
		if err != nil {
			return 0, err
		}
		if _, isTerm := s.(*searcher.TermSearcher); !isTerm {
			_ = s.Close() // a synonym expansion: not a term
			return 0, errShape
		}
		leaves = append(leaves, &leaf{s: s, boost: tq.BoostVal.Value(), group: group})
		return len(leaves) - 1, nil
	}
	nodes := make([]*node, 0, len(outer.Disjuncts))
	for _, d := range outer.Disjuncts {
		n := &node{leaf: -1}
		switch c := d.(type) {
		case *query.TermQuery:
			i, err := newLeaf(c, len(nodes))
			if err != nil {
				return nil, st, false, shapeErr(err)
			}
			n.leaf, n.weight, n.count = i, leaves[i].s.Weight(), leaves[i].s.Count()
		case *query.DisjunctionQuery:
			for _, dd := range c.Disjuncts {
				i, err := newLeaf(dd.(*query.TermQuery), len(nodes))
				if err != nil {
					return nil, st, false, shapeErr(err)
				}
				n.kids = append(n.kids, i)
			}
			n.kids = bleveOrder(n.kids, func(i int) uint64 { return leaves[i].s.Count() })
			for _, i := range n.kids { // DisjunctionSliceSearcher.Weight and Count
				n.weight += leaves[i].s.Weight()
				n.count += leaves[i].s.Count()
			}
		}
		nodes = append(nodes, n)
	}
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	order = bleveOrder(order, func(i int) uint64 { return nodes[i].count })
	sorted := make([]*node, len(nodes))
	for i, j := range order {
		sorted[i] = nodes[j]
	}
	// The outer disjunction's norm, which bleve's constructor sets last
	// on every term (computeQueryNorm).
	sumOfSquaredWeights := 0.0
	for _, n := range sorted {
		sumOfSquaredWeights += n.weight
	}
	norm := 1.0 / math.Sqrt(sumOfSquaredWeights)
	for _, l := range leaves {
		l.s.SetQueryNorm(norm)
		// score = idf·sat·(boost·idf·norm) with sat < k1, and
		// Weight = (boost·idf)²: the bound is k1·norm·Weight/boost.
		l.ub = search.BM25_k1 * norm * (l.s.Weight() / l.boost) * slack
		if !(l.ub >= 0) || math.IsInf(l.ub, 0) {
			return nil, st, false, nil
		}
	}
	for gi, n := range sorted { // the leaves' groups in sorted order
		if n.leaf >= 0 {
			leaves[n.leaf].group = gi
		}
		for _, i := range n.kids {
			leaves[i].group = gi
		}
	}
	p := &pruner{leaves: leaves, nodes: sorted, k: k}
	if err := p.run(); err != nil {
		return nil, p.st, true, err
	}
	hits, err = p.results(r)
	return hits, p.st, true, err
}

// supported reports whether q is a disjunction bleve answers with its
// slice searcher at both levels, of term queries on named fields.
func supported(q *query.DisjunctionQuery) bool {
	if q.Min != 0 || len(q.Disjuncts) == 0 || len(q.Disjuncts) > searcher.DisjunctionHeapTakeover {
		return false
	}
	term := func(c query.Query) bool {
		t, ok := c.(*query.TermQuery)
		return ok && t.FieldVal != "" && t.BoostVal.Value() > 0
	}
	for _, c := range q.Disjuncts {
		if term(c) {
			continue
		}
		d, ok := c.(*query.DisjunctionQuery)
		if !ok || d.Min != 0 || len(d.Disjuncts) == 0 || len(d.Disjuncts) > searcher.DisjunctionHeapTakeover {
			return false
		}
		for _, dd := range d.Disjuncts {
			if !term(dd) {
				return false
			}
		}
	}
	return true
}

// bleveOrder orders ids as bleve's disjunction orders its children:
// sort.Sort (not stable) on their counts, so the same permutation.
func bleveOrder(ids []int, count func(int) uint64) []int {
	l := byCount{ids: append([]int(nil), ids...)}
	for _, i := range l.ids {
		l.counts = append(l.counts, count(i))
	}
	sort.Sort(l)
	return l.ids
}

type byCount struct {
	ids    []int
	counts []uint64
}

func (b byCount) Len() int           { return len(b.ids) }
func (b byCount) Less(i, j int) bool { return b.counts[i] < b.counts[j] }
func (b byCount) Swap(i, j int) {
	b.ids[i], b.ids[j] = b.ids[j], b.ids[i]
	b.counts[i], b.counts[j] = b.counts[j], b.counts[i]
}

type shapeError struct{}

func (shapeError) Error() string { return "topk: not a term" }

var errShape error = shapeError{}

// shapeErr turns a shape refusal into no error (the caller falls back).
func shapeErr(err error) error {
	if err == errShape {
		return nil
	}
	return err
}

// internalLess orders internal ids as bleve's searchers walk them.
func internalLess(a, b index.IndexInternalID) bool { return bytes.Compare(a, b) < 0 }
