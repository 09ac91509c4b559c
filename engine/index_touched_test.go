package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"scriptorium/engine/index"
	"scriptorium/workspace/archive"
)

// TestTouchedDocs_LongChatMatchesFullBuild: the documents an install
// rewrites are exactly what a full build of the new snapshot holds, for a
// chat archive where pending records of unpaired senders sit between
// trusted ones (a group chat), when trusted records are appended and when
// a pending one is promoted (its neighbour's context changes). It guards
// touchedDocs' shortcut: a source of a changed archive is built with its
// archive, never looked up again with its neighbours.
func TestTouchedDocs_LongChatMatchesFullBuild(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: t.TempDir()})
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
		before, err := e.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if promote != "" {
			if _, err := e.Promote(ctx, []string{promote}); err != nil {
				t.Fatal(err)
			}
		} else {
			archives, _, err := e.archiveBatch(before, recs)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := e.install(ctx, Change{Kind: "write", Actor: "owner", Archives: archives}); err != nil {
				t.Fatal(err)
			}
		}
		after, err := e.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := before.docsOf()
		old, cur := touchedDocs(before, after)
		for id := range old {
			delete(got, id)
		}
		for id, d := range cur {
			got[id] = d
		}
		want := after.docsOf()
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
// install with touchedDocs' difference applied are exactly a full build
// of the snapshot after it.
func TestTouchedDocs_RandomInstallsMatchFullBuild(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w := &incWorld{t: t, r: rand.New(rand.NewPCG(26, 9)), engines: []*Engine{e}}
	for step := range 150 {
		before := w.snapshot(e)
		w.step()
		after := w.snapshot(e)
		got := before.docsOf()
		old, cur := touchedDocs(before, after)
		for id := range old {
			delete(got, id)
		}
		for id, d := range cur {
			got[id] = d
		}
		want := after.docsOf()
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
