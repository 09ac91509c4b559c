package enginetest

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"testing"

	"scriptorium/engine/index"
)

// Textbook is Okapi BM25 (k1 1.2, b 0.75, Lucene's non-negative idf) over
// texts tokenised by the product's analyser: the baseline of the recall
// measurements, what a plain BM25 over the transcript would find.
type Textbook struct {
	ids    []string
	tf     []map[string]int
	length []int
	df     map[string]int
	avgdl  float64
}

// NewTextbook indexes texts[i] under ids[i].
func NewTextbook(t testing.TB, ids, texts []string) *Textbook {
	t.Helper()
	bl := &Textbook{df: map[string]int{}}
	total := 0
	for i, text := range texts {
		toks, err := index.BaselineTokens(text)
		if err != nil {
			t.Fatal(err)
		}
		tf := map[string]int{}
		for _, tok := range toks {
			tf[tok]++
		}
		for term := range tf {
			bl.df[term]++
		}
		bl.ids = append(bl.ids, ids[i])
		bl.tf = append(bl.tf, tf)
		bl.length = append(bl.length, len(toks))
		total += len(toks)
	}
	bl.avgdl = float64(total) / float64(max(1, len(bl.ids)))
	return bl
}

// Rank returns the ids of the best limit texts for query, best first, ties
// by id; only texts sharing a term with the query.
func (bl *Textbook) Rank(t testing.TB, query string, limit int) []string {
	t.Helper()
	ids, _ := bl.Scored(t, query, limit)
	return ids
}

// Scored is Rank with the best text's score (0 when nothing matched).
func (bl *Textbook) Scored(t testing.TB, query string, limit int) (ids []string, top float64) {
	t.Helper()
	toks, err := index.BaselineTokens(query)
	if err != nil {
		t.Fatal(err)
	}
	terms := slices.Compact(slices.Sorted(slices.Values(toks)))
	const k1, b = 1.2, 0.75
	n := float64(len(bl.ids))
	type hit struct {
		id    string
		score float64
	}
	var hits []hit
	for i, id := range bl.ids {
		score := 0.0
		for _, term := range terms {
			f := float64(bl.tf[i][term])
			if f == 0 {
				continue
			}
			df := float64(bl.df[term])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := 1 - b + b*float64(bl.length[i])/bl.avgdl
			score += idf * f * (k1 + 1) / (f + k1*norm)
		}
		if score > 0 {
			hits = append(hits, hit{id, score})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		return cmp.Or(cmp.Compare(hits[j].score, hits[i].score), cmp.Compare(hits[i].id, hits[j].id)) < 0
	})
	out := make([]string, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.id)
	}
	if len(hits) > 0 {
		top = hits[0].score
	}
	return out, top
}
