package index

import (
	"cmp"
	"math"
	"slices"
	"testing"
)

// baselineBM25 is textbook Okapi BM25 (k1 = 1.2, b = 0.75, Lucene's
// non-negative idf) over the same tokens as the index. bleve's variant
// differs: it takes the square root of the term frequency, weights each
// term by its normalised idf a second time, multiplies by a coordination
// factor (matched terms / query terms), and rounds the mean length up. The
// baseline exists to measure how far that moves rankings (recall
// comparisons), not to replace it.
type baselineBM25 struct {
	k1, b  float64
	ids    []string
	tf     []map[string]int
	length []int
	df     map[string]int
	avgdl  float64
}

func newBaselineBM25(t testing.TB, docs []Doc) *baselineBM25 {
	t.Helper()
	bl := &baselineBM25{k1: 1.2, b: 0.75, df: map[string]int{}}
	total := 0
	for _, d := range docs {
		if !d.Visible {
			continue
		}
		toks, err := Tokens(d.Text)
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
		bl.ids = append(bl.ids, d.ID)
		bl.tf = append(bl.tf, tf)
		bl.length = append(bl.length, len(toks))
		total += len(toks)
	}
	if len(bl.ids) > 0 {
		bl.avgdl = float64(total) / float64(len(bl.ids))
	}
	return bl
}

type baselineHit struct {
	ID    string
	Score float64
}

// search scores every document against the distinct query terms and returns
// the best limit, ties by id.
func (bl *baselineBM25) search(t testing.TB, query string, limit int) []baselineHit {
	t.Helper()
	terms, err := queryTerms(query)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(len(bl.ids))
	var hits []baselineHit
	for i, id := range bl.ids {
		score := 0.0
		for _, term := range terms {
			f := float64(bl.tf[i][term])
			if f == 0 {
				continue
			}
			df := float64(bl.df[term])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			norm := 1 - bl.b + bl.b*float64(bl.length[i])/bl.avgdl
			score += idf * f * (bl.k1 + 1) / (f + bl.k1*norm)
		}
		if score > 0 {
			hits = append(hits, baselineHit{id, score})
		}
	}
	slices.SortFunc(hits, func(a, b baselineHit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	return hits[:min(limit, len(hits))]
}

func TestBaselineBM25_AgreesOnObviousCase(t *testing.T) {
	docs := []Doc{
		topic("aaaaaaaa", "copper pot stand"),
		topic("bbbbbbbb", "copper kettle on the stove in the kitchen"),
		topic("cccccccc", "copper copper copper wire"),
		topic("dddddddd", "silver spoon"),
		topic("eeeeeeee", "the kitchen has a stove"),
	}
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	bl := newBaselineBM25(t, docs)
	for _, q := range []string{"copper", "silver", "kitchen stove"} {
		hits, err := ix.Search(Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, h := range hits {
			got = append(got, h.ID)
		}
		for _, h := range bl.search(t, q, 10) {
			want = append(want, h.ID)
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%q: index %v, baseline %v", q, got, want)
		}
	}
}

// TestBaselineBM25_DiffersOnTermFrequency pins down the main variant
// difference: bleve damps term frequency with a square root, so a one-word
// document beats a four-word one that repeats the term three times, where
// textbook BM25 ranks them the other way round.
func TestBaselineBM25_DiffersOnTermFrequency(t *testing.T) {
	docs := []Doc{
		topic("aaaaaaaa", "copper"),
		topic("cccccccc", "copper copper copper wire"),
		topic("dddddddd", "silver spoon"),
	}
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(Query{Text: "copper"})
	if err != nil {
		t.Fatal(err)
	}
	base := newBaselineBM25(t, docs).search(t, "copper", 10)
	if len(hits) != 2 || len(base) != 2 {
		t.Fatalf("index %v, baseline %v", scored(hits), base)
	}
	if hits[0].Ref != "aaaaaaaa" || base[0].ID != "topic:cccccccc" {
		t.Errorf("index top %s, baseline top %s; want aaaaaaaa and topic:cccccccc", hits[0].Ref, base[0].ID)
	}
}

// TestBaselineBM25_TopTenOverlap measures how much of the textbook top 10
// the index returns on a generated corpus. The bound is loose on purpose:
// it catches a broken scorer (tf-idf, no length normalisation, wrong
// stats), not small variant differences.
func TestBaselineBM25_TopTenOverlap(t *testing.T) {
	docs := genDocs(2000, 21)
	ix := mustOpen(t)
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	bl := newBaselineBM25(t, docs)
	var sum float64
	queries := genQueries(50, 22)
	counted := 0
	for _, q := range queries {
		want := bl.search(t, q, 10)
		if len(want) == 0 {
			continue
		}
		hits, err := ix.Search(Query{Text: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		for _, h := range hits {
			in[h.ID] = true
		}
		common := 0
		for _, w := range want {
			if in[w.ID] {
				common++
			}
		}
		sum += float64(common) / float64(len(want))
		counted++
	}
	if counted < len(queries)/2 {
		t.Fatalf("only %d queries matched anything", counted)
	}
	mean := sum / float64(counted)
	t.Logf("mean top-10 overlap with textbook BM25: %.3f over %d queries", mean, counted)
	if mean < 0.7 {
		t.Errorf("mean top-10 overlap %.3f < 0.7", mean)
	}
}
