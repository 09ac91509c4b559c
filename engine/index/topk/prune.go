package topk

import (
	"container/heap"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// pruner walks the terms' postings document by document (MaxScore).
type pruner struct {
	leaves []*leaf
	nodes  []*node // the outer disjunction's children, in bleve's order
	k      int
	st     Stats

	sctx  *search.SearchContext
	byUB  []int // leaves by bound, weakest first
	cut   int   // byUB[:cut] are non-essential: they propose no document
	top   scores
	theta float64 // the k-th best score so far, once k were scored
	full  bool
	cands []Match // every document scored at least theta when scored
	poss  []bool  // per leaf, whether it may match the document at hand
}

func (p *pruner) run() error {
	p.sctx = &search.SearchContext{DocumentMatchPool: search.NewDocumentMatchPool(2*len(p.leaves)+1, 0)}
	p.poss = make([]bool, len(p.leaves))
	p.byUB = make([]int, len(p.leaves))
	for i, l := range p.leaves {
		p.byUB[i] = i
		var err error
		if l.curr, err = l.s.Next(p.sctx); err != nil {
			return err
		}
		l.done = l.curr == nil
	}
	slices.SortStableFunc(p.byUB, func(a, b int) int {
		switch ua, ub := p.leaves[a].ub, p.leaves[b].ub; {
		case ua < ub:
			return -1
		case ua > ub:
			return 1
		}
		return 0
	})
	var doc index.IndexInternalID
	for {
		// The next document an essential term proposes.
		var next *leaf
		for _, i := range p.byUB[p.cut:] {
			if l := p.leaves[i]; !l.done && (next == nil || internalLess(l.curr.IndexInternalID, next.curr.IndexInternalID)) {
				next = l
			}
		}
		if next == nil {
			return nil
		}
		doc = append(doc[:0], next.curr.IndexInternalID...)
		if err := p.visit(doc); err != nil {
			return err
		}
		for _, i := range p.byUB[p.cut:] {
			if l := p.leaves[i]; !l.done && l.curr.IndexInternalID.Equals(doc) {
				if err := p.step(l, nil); err != nil {
					return err
				}
			}
		}
	}
}

// visit scores doc unless its bound says it cannot reach the top k.
func (p *pruner) visit(doc index.IndexInternalID) error {
	for i, l := range p.leaves {
		p.poss[i] = !l.done && !internalLess(doc, l.curr.IndexInternalID)
	}
	// The non-essential terms are moved to doc strongest first, and the
	// bound is asked again after each: most documents one rare term
	// proposes fall below theta before the common terms are read.
	for j := p.cut - 1; j >= -1; j-- {
		if p.full && p.bound() < p.theta {
			p.st.Pruned++
			return nil
		}
		if j < 0 {
			break
		}
		i := p.byUB[j]
		if l := p.leaves[i]; !l.done && internalLess(l.curr.IndexInternalID, doc) {
			if err := p.step(l, doc); err != nil {
				return err
			}
			p.poss[i] = !l.done && l.curr.IndexInternalID.Equals(doc)
		}
	}
	p.st.Scored++
	p.collect(doc, p.score(doc))
	return nil
}

// step moves a term to its next document, or to the first at or after
// to.
func (p *pruner) step(l *leaf, to index.IndexInternalID) error {
	p.sctx.DocumentMatchPool.Put(l.curr)
	var err error
	if to == nil {
		l.curr, err = l.s.Next(p.sctx)
	} else {
		l.curr, err = l.s.Advance(p.sctx, to)
	}
	l.done = l.curr == nil
	return err
}

// score is bleve's score of doc: DisjunctionQueryScorer.Score at both
// levels, children in their sorted order, the same operations.
func (p *pruner) score(doc index.IndexInternalID) float64 {
	at := func(i int) bool { l := p.leaves[i]; return !l.done && l.curr.IndexInternalID.Equals(doc) }
	var sum float64
	matched := 0
	for _, n := range p.nodes {
		if n.leaf >= 0 {
			if at(n.leaf) {
				sum += p.leaves[n.leaf].curr.Score
				matched++
			}
			continue
		}
		var inner float64
		c := 0
		for _, i := range n.kids {
			if at(i) {
				inner += p.leaves[i].curr.Score
				c++
			}
		}
		if c > 0 {
			coord := float64(c) / float64(len(n.kids))
			sum += float64(inner * coord)
			matched++
		}
	}
	coord := float64(matched) / float64(len(p.nodes))
	return sum * coord
}

// bound is the most a document can score when it matches at most the
// leaves in poss.
func (p *pruner) bound() float64 {
	var sum float64
	matched := 0
	for _, n := range p.nodes {
		if n.leaf >= 0 {
			if p.poss[n.leaf] {
				sum += p.leaves[n.leaf].ub
				matched++
			}
			continue
		}
		var inner float64
		c := 0
		for _, i := range n.kids {
			if p.poss[i] {
				inner += p.leaves[i].ub
				c++
			}
		}
		if c > 0 {
			sum += inner * float64(c) / float64(len(n.kids))
			matched++
		}
	}
	return sum * float64(matched) / float64(len(p.nodes)) * slack
}

// collect keeps doc if it may be in the top k, and raises theta.
func (p *pruner) collect(doc index.IndexInternalID, s float64) {
	switch {
	case !p.full:
		heap.Push(&p.top, s)
	case s < p.theta:
		return
	case s > p.theta:
		heap.Pop(&p.top)
		heap.Push(&p.top, s)
	}
	p.cands = append(p.cands, Match{Internal: slices.Clone(doc), Score: s})
	if len(p.top) < p.k {
		return
	}
	if p.full && p.top[0] == p.theta {
		return
	}
	p.full, p.theta = true, p.top[0]
	if len(p.cands) > 2*p.k+64 {
		p.cands = slices.DeleteFunc(p.cands, func(m Match) bool { return m.Score < p.theta })
	}
	p.raiseCut()
}

// raiseCut makes non-essential every weakest term that, with all weaker
// ones, cannot lift a document to theta.
func (p *pruner) raiseCut() {
	for p.cut < len(p.byUB) {
		clear(p.poss)
		for _, i := range p.byUB[:p.cut+1] {
			p.poss[i] = true
		}
		if p.bound() >= p.theta {
			return
		}
		p.cut++
	}
}

// results are the kept documents with their external ids, best first,
// equal scores by id, at most k.
func (p *pruner) results(r index.IndexReader) ([]Match, error) {
	out := p.cands[:0]
	for _, m := range p.cands {
		if !p.full || m.Score >= p.theta {
			id, err := r.ExternalID(m.Internal)
			if err != nil {
				return nil, err
			}
			m.ID = id
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Match) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out[:min(p.k, len(out))], nil
}

// scores is a min-heap of the best k scores.
type scores []float64

func (h scores) Len() int           { return len(h) }
func (h scores) Less(i, j int) bool { return h[i] < h[j] }
func (h scores) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *scores) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *scores) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
