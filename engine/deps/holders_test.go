package deps

import (
	"maps"
	"math/rand"
	"testing"
)

// TestHolders_MatchMapOfMaps holds holders to bump on a map of maps, the
// representation it replaced, over random adds and drops of a few paths
// under a few keys (drops of what was never added included).
func TestHolders_MatchMapOfMaps(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	keys, paths := []string{"a", "b", "c"}, []string{"p", "q", "r"}
	for round := range 200 {
		h, want := holders{}, map[string]map[string]int{}
		for step := range 60 {
			k, v, by := keys[r.Intn(len(keys))], paths[r.Intn(len(paths))], []int{1, 1, 2, -1, -1, -2}[r.Intn(6)]
			h.bump(k, v, by)
			bump(want, k, v, by)
			for _, k := range keys {
				if got := h.of(k); !maps.Equal(got, want[k]) || (got == nil) != (want[k] == nil) {
					t.Fatalf("round %d step %d: bump(%s, %s, %d): %s holds %v, want %v", round, step, k, v, by, k, got, want[k])
				}
			}
			if len(h) != len(want) {
				t.Fatalf("round %d step %d: %d keys, want %d", round, step, len(h), len(want))
			}
		}
	}
}
