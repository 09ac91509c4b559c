package engine_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/search"
	"scriptorium/workspace/archive"
)

// TestTouchedDocs_LongChatMatchesFullBuild: the documents an install
// rewrites are exactly what a full build of the new snapshot holds, for a
// chat archive where pending records of unpaired senders sit between
// trusted ones (a group chat), when trusted records are appended and when
// a pending one is promoted (its neighbour's context changes). It guards
// search.IndexChanges' shortcut: a source of a changed archive is built with its
// archive, never looked up again with its neighbours.
func TestTouchedDocs_LongChatMatchesFullBuild(t *testing.T) {
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	rec := func(i int, pending bool) archive.Record {
		who := "owner"
		if pending {
			who = "stranger"
		}
		return archive.Record{SourceID: fmt.Sprintf("whatsapp/crew/m%03d", i), Role: "user", SpeakerID: who,
			SpeakerDisplay: who, Time: at.Add(time.Duration(i) * time.Minute), Content: fmt.Sprintf("message %d from %s", i, who),
			Pending: pending}
	}
	step := func(recs []archive.Record, promote string) {
		t.Helper()
		before := corpusOf(t, e)
		if promote != "" {
			if _, err := e.Promote(ctx, []string{promote}); err != nil {
				t.Fatal(err)
			}
		} else {
			v, err := e.View(ctx)
			if err != nil {
				t.Fatal(err)
			}
			archives, err := e.ArchiveBatch(v, recs)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.Install(ctx, engine.Change{Kind: "write", Actor: "owner", Archives: archives}); err != nil {
				t.Fatal(err)
			}
		}
		after := corpusOf(t, e)
		got := search.DocMap(before)
		old, cur := search.IndexChanges(before, after)
		for id := range old {
			delete(got, id)
		}
		for id, d := range cur {
			got[id] = d
		}
		want := search.DocMap(after)
		if len(got) != len(want) {
			t.Errorf("%d documents after the update, a full build has %d", len(got), len(want))
		}
		for id, d := range want {
			if g, ok := got[id]; !ok || g != d {
				t.Errorf("document %s: updated %+v, full build %+v", id, docSummary(g), docSummary(d))
			}
		}
	}
	var first []archive.Record
	for i := range 60 {
		first = append(first, rec(i, i%5 != 0)) // one trusted in five
	}
	step(first, "")
	step([]archive.Record{rec(60, false), rec(61, true), rec(62, false)}, "")
	step(nil, "whatsapp/crew/m007")
}

func docSummary(d index.Doc) string { return d.ID + " ctx=" + d.Context }

// TestTouchedDocs_RandomInstallsMatchFullBuild: over random installs
// (appends, pending records, promotions, topics citing and linking,
// deletes, moves, damaged archives: incWorld), the documents before an
// install with search.IndexChanges' difference applied are exactly a full build
// of the snapshot after it.
func TestTouchedDocs_RandomInstallsMatchFullBuild(t *testing.T) {
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w := engine.NewIncWorld(t, e, 26, 9)
	for step := range 150 {
		before := corpusOf(t, e)
		w.Step()
		after := corpusOf(t, e)
		got := search.DocMap(before)
		old, cur := search.IndexChanges(before, after)
		for id := range old {
			delete(got, id)
		}
		for id, d := range cur {
			got[id] = d
		}
		want := search.DocMap(after)
		if len(got) != len(want) {
			t.Fatalf("step %d: %d documents after the update, a full build has %d", step, len(got), len(want))
		}
		for id, d := range want {
			if g, ok := got[id]; !ok || g != d {
				t.Fatalf("step %d: document %s: updated %+v, full build %+v", step, id, g, d)
			}
		}
	}
}

// corpusOf is e's Corpus now.
func corpusOf(t *testing.T, e *engine.Engine) engine.Corpus {
	t.Helper()
	c, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}
