package engine_test

import (
	"context"
	"math"
	"os"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// TestSearchContext_IncrementalMatchesRebuild: a record's context is the
// trusted turn before it, so a promotion changes the next record's document
// too. After promotions the incrementally updated index must answer exactly
// as one rebuilt from the files.
func TestSearchContext_IncrementalMatchesRebuild(t *testing.T) {
	ctx := context.Background()
	state := seState(t, "trust")
	e := ftOpen(t, state)
	queries := []string{"zebrafish", "vault passphrase", "quokka budget", "secret", "midnight", "harbour trip", "Mallory"}
	seFind(t, e, "quokka")
	for _, id := range []string{"telegram/family/f2", "telegram/family/f3"} {
		if _, err := e.Promote(ctx, []string{id}); err != nil {
			t.Fatal(err)
		}
	}
	if !seIndex(t, e).Fresh {
		t.Fatal("the index is stale after the promotions")
	}
	type hit struct {
		ref   string
		score float64
	}
	answer := func(e *engine.Engine) map[string][]hit {
		out := map[string][]hit{}
		for _, q := range queries {
			for _, r := range seSearch(t, e, result.SearchQuery{Text: q, Limit: 50}) {
				out[q] = append(out[q], hit{r.Ref, r.Score})
			}
		}
		return out
	}
	incremental := answer(e)
	e.Close()
	if err := os.RemoveAll(seIndexDir(state)); err != nil {
		t.Fatal(err)
	}
	rebuilt := answer(ftOpen(t, state))
	for _, q := range queries {
		a, b := incremental[q], rebuilt[q]
		same := len(a) == len(b)
		for i := 0; same && i < len(a); i++ {
			same = a[i].ref == b[i].ref && math.Abs(a[i].score-b[i].score) <= 1e-9*math.Max(1, b[i].score)
		}
		if !same {
			t.Errorf("%q: incremental %v, rebuilt %v", q, a, b)
		}
	}
	if len(incremental["zebrafish"]) < 2 {
		t.Errorf("zebrafish finds %v: the promoted turn and the one after it (context) expected", incremental["zebrafish"])
	}
}
