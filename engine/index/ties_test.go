package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// tieDocs are 3 documents that rank first for "apple" (it is said twice),
// 40 that tie behind them (identical text) and filler without the word.
// The tied ones share two times, and a few are undated topics, so the date
// order ties too. Ids are random, so no build order is id order.
func tieDocs() (docs []Doc, high, tied []string) {
	r := rand.New(rand.NewPCG(7, 7))
	t1 := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	for i := range 60 {
		id := fmt.Sprintf("source:sources/p/t.md#source-%08x", r.Uint32())
		d := Doc{ID: id, Kind: KindSource, Path: "sources/p/t.md", Ref: id, Anchor: id, Visible: true}
		switch {
		case i < 3:
			d.Text, d.Time = "apple apple pear", t1
			high = append(high, id)
		case i < 43:
			d.Text, d.Time = "apple pear", []time.Time{t1, t2}[i%2]
			if i%7 == 0 {
				d.ID, d.Kind, d.Path, d.Time = "topic:"+id, KindTopic, "topics/x.md", time.Time{}
			}
			tied = append(tied, d.ID)
		default:
			d.Text = "plum quince"
		}
		docs = append(docs, d)
	}
	r.Shuffle(len(docs), func(i, j int) { docs[i], docs[j] = docs[j], docs[i] })
	slices.Sort(high)
	slices.Sort(tied)
	return docs, high, tied
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

// TestSearch_TiesInIDOrder: equal scores come back in id order, for every
// limit (a cut-off inside a tie, and ties longer than the slack top asks
// bleve for), from an index built in one shuffled Rebuild and from one fed
// in the reverse order in small batches (other segments, other internal
// order).
func TestSearch_TiesInIDOrder(t *testing.T) {
	docs, high, tied := tieDocs()
	built := mustOpen(t)
	if err := built.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	applied := mustOpen(t)
	// bleve's own top-k and its tie paths (the pruning one is checked
	// against it in pruned_test.go).
	built.noPruning, applied.noPruning = true, true
	rev := slices.Clone(docs)
	slices.Reverse(rev)
	for i := 0; i < len(rev); i += 4 {
		if err := applied.Apply(rev[i:min(i+4, len(rev))], nil); err != nil {
			t.Fatal(err)
		}
	}
	want := append(slices.Clone(high), tied...)
	searches := 0
	for _, ix := range []*Index{built, applied} {
		for limit := 1; limit <= len(want)+2; limit++ {
			hits, err := ix.Search(Query{Text: "apple", Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			searches++
			if got := ids(hits); !slices.Equal(got, want[:min(limit, len(want))]) {
				t.Fatalf("limit %d:\ngot  %q\nwant %q", limit, got, want[:min(limit, len(want))])
			}
		}
	}
	if n := built.tieFallbacks.Load() + applied.tieFallbacks.Load(); n == 0 || n == int64(searches) {
		t.Fatalf("%d of %d searches needed the exact order: both paths must be tested", n, searches)
	}

	// By date: newest first, then score, then id; undated last.
	all, err := built.Search(Query{Text: "apple", Sort: SortDate, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(want) {
		t.Fatalf("date sort: %d hits, want %d", len(all), len(want))
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		ok := false
		switch {
		case a.Time.IsZero() != b.Time.IsZero():
			ok = b.Time.IsZero()
		case !a.Time.Equal(b.Time):
			ok = a.Time.After(b.Time)
		case a.Score != b.Score:
			ok = a.Score > b.Score
		default:
			ok = strings.Compare(a.ID, b.ID) < 0
		}
		if !ok {
			t.Fatalf("date sort: hit %d (%s %v %v) before hit %d (%s %v %v)", i-1, a.ID, a.Time, a.Score, i, b.ID, b.Time, b.Score)
		}
	}
	for _, ix := range []*Index{built, applied} {
		for limit := 1; limit <= len(want); limit++ {
			hits, err := ix.Search(Query{Text: "apple", Sort: SortDate, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(hits); !slices.Equal(got, ids(all[:limit])) {
				t.Fatalf("date sort, limit %d:\ngot  %q\nwant %q", limit, got, ids(all[:limit]))
			}
		}
	}
}

// TestSearch_TieSettledByWidening: a tie at the cut-off that tieSlack does
// not settle but a tieWiden times wider ask does is answered without the
// id-ordered search (it loads every match's id: an English prompt's tie
// at 100k paid it on every search), with the same hits, in id order, and
// their stored fields, which the asks in rank order leave to the kept
// hits; every search of both indexes agrees with the id-ordered answer.
func TestSearch_TieSettledByWidening(t *testing.T) {
	docs, high, tied := tieDocs()
	built := mustOpen(t)
	built.noPruning = true // bleve's top-k, whose tie paths this is about
	if err := built.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(high), tied...)
	byID := map[string]Doc{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	// 43 matches: from limit 7 on, 4×(limit+5) asks for them all.
	for limit := 7; limit <= len(want); limit++ {
		for _, sort := range []string{SortScore, SortDate} {
			hits, err := built.Search(Query{Text: "apple", Limit: limit, Sort: sort})
			if err != nil {
				t.Fatal(err)
			}
			if sort == SortScore && !slices.Equal(ids(hits), want[:limit]) {
				t.Fatalf("limit %d:\ngot  %q\nwant %q", limit, ids(hits), want[:limit])
			}
			for _, h := range hits {
				d := byID[h.ID]
				if h.Kind != d.Kind || h.Path != d.Path || h.Anchor != d.Anchor || !h.Time.Equal(d.Time) {
					t.Fatalf("limit %d %s: hit %s has the fields %q %q %q %v, its document %q %q %q %v",
						limit, sort, h.ID, h.Kind, h.Path, h.Anchor, h.Time, d.Kind, d.Path, d.Anchor, d.Time)
				}
			}
		}
	}
	if n := built.exactSorts.Load(); n != 0 {
		t.Fatalf("%d searches were asked again in id order; widening settles every tie of up to %d", n, len(want))
	}
	if built.tieFallbacks.Load() == 0 {
		t.Fatal("no search had a tie at its cut-off: the test tests nothing")
	}
}
