package engine

import (
	"context"
	"maps"
	"math/rand/v2"
	"reflect"
	"scriptorium/errcode"
	"testing"
)

// TestIntroducedBy_MatchesFullValidation: for random changes (archive
// appends with duplicate sources and broken frames, topics with duplicate
// block ids, broken links and citations that do not resolve, moves,
// deletes, promotions, and topics written behind the engine's back so the
// workspace itself holds violations), the violations introducedBy reports
// from the files a change can affect are exactly those a full validation
// of the workspace before and after reports.
func TestIntroducedBy_MatchesFullValidation(t *testing.T) {
	steps := 150
	if testing.Short() {
		steps = 50
	}
	ctx := context.Background()
	kinds := map[string]int{}
	for seed := range uint64(3) {
		state := t.TempDir()
		w := &incWorld{t: t, r: rand.New(rand.NewPCG(seed, 41))}
		for range 2 {
			e, err := Open(ctx, Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			w.engines = append(w.engines, e)
		}
		for step := range steps {
			e, ch, ok := w.change()
			if !ok {
				continue
			}
			before := w.snapshot(e)
			plan, err := e.planAll(before, ch)
			if err != nil {
				continue // forbidden: never validated
			}
			after := before.with(plan)
			want := introduced(before.violations(), after.violations())
			got := e.introducedBy(before, after, plan)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d step %d: introducedBy\n%v\nwant (full validation)\n%v", seed, step, got, want)
			}
			for _, v := range want {
				kinds[v.Code]++
			}
			if _, err := e.install(ctx, ch); err != nil && errcode.As(err).Code != errcode.Rejected {
				t.Fatal(err)
			}
		}
	}
	// The run must have met the violations it is about.
	for _, code := range []string{"duplicate_block_id", "broken_link", "unresolved_source", "duplicate_source", "invalid_frame"} {
		if kinds[code] == 0 {
			t.Errorf("no change introduced a %s violation (seen: %v)", code, kinds)
		}
	}
}

// TestDepIndex_LookupsMatchScans: the index's block-id and citation
// lookups answer as View.BlockIDs and View.CitedSources after random changes.
func TestDepIndex_LookupsMatchScans(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w := &incWorld{t: t, r: rand.New(rand.NewPCG(7, 7)), engines: []*Engine{e}}
	for range 60 {
		w.step()
		v, err := e.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		taken, cited := e.BlockIDTaken(v), e.SourceCited(v)
		ids, refs := v.BlockIDs(), v.CitedSources()
		for _, tf := range v.s.topics {
			for _, b := range tf.file.Blocks() {
				if !taken(b.BlockID) {
					t.Fatalf("block id %s not taken", b.BlockID)
				}
			}
		}
		for id := range ids {
			if !taken(id) {
				t.Fatalf("block id %s not taken", id)
			}
		}
		if taken("0000dead") != ids["0000dead"] {
			t.Fatal("a free id is taken")
		}
		for _, src := range v.s.sources.All() {
			if cited(src.view().Ref) != refs[src.view().Ref] {
				t.Fatalf("cited(%s) = %v, CitedSources says %v", src.view().Ref, cited(src.view().Ref), refs[src.view().Ref])
			}
		}
	}
}

// TestIndexChanged_MatchesFullIndex: the source index snapshot.with
// updates for the archives a plan changes equals the one indexSources
// builds from scratch for the same files.
func TestIndexChanged_MatchesFullIndex(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	w := &incWorld{t: t, r: rand.New(rand.NewPCG(9, 14)), engines: []*Engine{e}}
	sameEntry := func(a, b *sourceEntry) bool {
		return a != nil && b != nil && a.view() == b.view() && a.framePending == b.framePending && a.file.path == b.file.path
	}
	for step := range 120 {
		_, ch, ok := w.change()
		if !ok {
			continue
		}
		before := w.snapshot(e)
		plan, err := e.planAll(before, ch)
		if err != nil {
			continue
		}
		after := before.with(plan)
		full := *after
		full.archives = map[string]*archiveFile{}
		for p, a := range after.archives {
			cp := *a
			cp.sources = nil
			full.archives[p] = &cp
		}
		full.indexSources()
		for name, pair := range map[string][2]map[string]*sourceEntry{"sources": {maps.Collect(after.sources.All()), maps.Collect(full.sources.All())}, "anchors": {anchorMap(after), anchorMap(&full)}} {
			got, want := pair[0], pair[1]
			if len(got) != len(want) {
				t.Fatalf("step %d: %s has %d entries, want %d", step, name, len(got), len(want))
			}
			for k, we := range want {
				if !sameEntry(got[k], we) {
					t.Fatalf("step %d: %s[%s] = %+v, want %+v", step, name, k, got[k], we)
				}
			}
		}
		for p, a := range full.archives {
			if len(after.archives[p].sources) != len(a.sources) {
				t.Fatalf("step %d: %s lists %d sources, want %d", step, p, len(after.archives[p].sources), len(a.sources))
			}
		}
		if _, err := e.install(ctx, ch); err != nil && errcode.As(err).Code != errcode.Rejected {
			t.Fatal(err)
		}
	}
}
