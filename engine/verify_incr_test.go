package engine

import (
	"context"
	"math/rand/v2"
	"reflect"
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
			if _, err := e.install(ctx, ch); err != nil && AsError(err).Code != CodeRejected {
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
