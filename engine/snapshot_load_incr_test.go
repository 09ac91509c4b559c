package engine

import (
	"context"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestLoadSnapshot_IncrementalSourceIndex: a snapshot read after an
// install, reusing the previous one (only the changed archives re-read and
// their entries updated), has exactly the source index a read from scratch
// builds, over random changes: appends, new archives, damaged archives,
// promotions, deletes and moves (incWorld).
func TestLoadSnapshot_IncrementalSourceIndex(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w := &incWorld{t: t, r: rand.New(rand.NewPCG(26, 3)), engines: []*Engine{e}}
	sameEntry := func(a, b *sourceEntry) bool {
		return a != nil && b != nil && a.view() == b.view() && a.framePending == b.framePending &&
			a.file.path == b.file.path && a.pos == b.pos
	}
	for step := range 150 {
		prev := w.snapshot(e)
		w.step()
		promoted, err := e.rec.Promoted(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, err := loadSnapshot(e.ws.Root(), promoted, prev)
		if err != nil {
			t.Fatal(err)
		}
		want, err := loadSnapshot(e.ws.Root(), promoted, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, pair := range map[string][2]map[string]*sourceEntry{"sources": {maps.Collect(got.sources.All()), maps.Collect(want.sources.All())}, "anchors": {anchorMap(got), anchorMap(want)}} {
			if len(pair[0]) != len(pair[1]) {
				t.Fatalf("step %d: %s has %d entries, a full read %d", step, name, len(pair[0]), len(pair[1]))
			}
			for k, we := range pair[1] {
				if !sameEntry(pair[0][k], we) {
					t.Fatalf("step %d: %s[%s] = %+v, a full read %+v", step, name, k, pair[0][k], we)
				}
			}
		}
		for p, a := range want.archives {
			if g := got.archives[p]; g == nil || len(g.sources) != len(a.sources) {
				t.Fatalf("step %d: %s lists a different number of sources", step, p)
			}
		}
		// The previous snapshot is never changed by the read that reused it.
		for _, p := range prev.archPaths {
			for i, e := range prev.archives[p].sources {
				if e.file != prev.archives[p] || e.pos != i {
					t.Fatalf("step %d: the reused snapshot's %s was changed", step, p)
				}
			}
		}
	}
}

// anchorMap is every anchor of s's archives with the record anchorEntry
// finds there, keyed "path#anchor".
func anchorMap(s *snapshot) map[string]*sourceEntry {
	m := map[string]*sourceEntry{}
	for p, a := range s.archives {
		for _, e := range a.sources {
			m[p+"#"+e.anchor], _ = s.anchorEntry(p, e.anchor)
		}
	}
	return m
}
