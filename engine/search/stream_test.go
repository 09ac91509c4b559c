package search

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"scriptorium/engine/index"
)

// The first build streams the snapshot's documents into the index file by
// file (eachDoc, index.RebuildFrom) instead of building them all first:
// it must hold every document a whole build holds and answer every query
// as an index built from Docs does, scores included.
func TestFirstBuild_StreamedAsWhole(t *testing.T) {
	state, m := resyncWorkspace(t, 2500) // its first search streamed the build
	e := resyncOpen(t, state)
	got, want := indexIDs(t, e), snapshotIDs(t, e)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("the streamed build holds %d documents, a whole build %d", len(got), len(want))
	}
	c, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := index.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if err := whole.Rebuild(Docs(c)); err != nil {
		t.Fatal(err)
	}
	streamed, done, err := stateOf(e).openIndex()
	if err != nil {
		t.Fatal(err)
	}
	defer done(false)
	for _, q := range m.Queries {
		a, err := whole.Search(index.Query{Text: q, Limit: 25})
		if err != nil {
			t.Fatal(err)
		}
		b, err := streamed.Search(index.Query{Text: q, Limit: 25})
		if err != nil {
			t.Fatal(err)
		}
		if len(a) == 0 || !sameHits(a, b) {
			t.Errorf("query %q: the streamed build answers\n%v\na whole build\n%v", q, b, a)
		}
	}
}

// eachDoc yields what DocMap holds, each id once.
func TestEachDoc_EachIDOnce(t *testing.T) {
	state, _ := resyncWorkspace(t, 1500)
	e := resyncOpen(t, state)
	c, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := DocMap(c)
	seen := map[string]bool{}
	err = eachDoc(c, func(d *index.Doc) error {
		if seen[d.ID] {
			t.Errorf("%s yielded twice", d.ID)
		}
		seen[d.ID] = true
		if w, ok := want[d.ID]; !ok || w != *d {
			t.Errorf("%s: yielded %+v, DocMap holds %+v", d.ID, *d, w)
		}
		return nil
	})
	if err != nil || len(seen) != len(want) {
		t.Fatalf("eachDoc yielded %d documents (%v), DocMap holds %d", len(seen), err, len(want))
	}
}

// sameHits: the same hits, each at the same score but for the last bits
// (bleve sums a score's parts per segment, and the build's order and
// merges move the segments). Hits whose scores differ only there may
// swap places, and at the cut-off one may stand for another: such a near
// tie ranks by float noise in any build, whole or streamed.
func sameHits(a, b []index.Hit) bool {
	if len(a) != len(b) {
		return false
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Max(1, math.Abs(x)) }
	byID := map[string]index.Hit{}
	for _, h := range a {
		byID[h.ID] = h
	}
	for i, y := range b {
		if !near(a[i].Score, y.Score) {
			return false
		}
		x, ok := byID[y.ID]
		if !ok {
			if near(y.Score, a[len(a)-1].Score) {
				continue // a tie at the cut-off
			}
			return false
		}
		if !near(x.Score, y.Score) || x.Kind != y.Kind || x.Path != y.Path || x.Anchor != y.Anchor || x.Ref != y.Ref ||
			!x.Time.Equal(y.Time) || x.SpeakerID != y.SpeakerID || x.SpeakerLabel != y.SpeakerLabel ||
			x.SpeakerDisplay != y.SpeakerDisplay || x.SpeakerTrusted != y.SpeakerTrusted {
			return false
		}
	}
	return true
}
