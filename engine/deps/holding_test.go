package deps

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"scriptorium/workspace/archive"
)

// TestIndex_ArchivesHoldingAsASet: the one-archive map and the overflow
// sets answer as one set per source-id did, through random adds and
// drops of archives sharing source-ids.
func TestIndex_ArchivesHoldingAsASet(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	var x Index
	want := map[string]map[string]bool{} // archive → its refs
	for step := range 2000 {
		p := fmt.Sprintf("sources/p/_v2/t%d.md", r.IntN(6))
		if _, ok := want[p]; ok && r.IntN(3) == 0 {
			x.DropArchive(p)
			delete(want, p)
		} else {
			if ok {
				x.DropArchive(p)
			}
			var frames []archive.Frame
			refs := map[string]bool{}
			for range r.IntN(5) {
				id := fmt.Sprintf("p/t/%d", r.IntN(10))
				frames = append(frames, archive.Frame{SourceID: id})
				refs[id] = true
			}
			x.AddArchive(p, frames)
			want[p] = refs
		}
		for i := range 10 {
			id := fmt.Sprintf("p/t/%d", i)
			exp := map[string]struct{}{}
			for a, refs := range want {
				if refs[id] {
					exp[a] = struct{}{}
				}
			}
			got := x.ArchivesHolding(id)
			if len(exp) == 0 && got != nil || len(exp) > 0 && !maps.Equal(got, exp) {
				t.Fatalf("step %d: ArchivesHolding(%s) = %v, want %v", step, id, got, exp)
			}
		}
		if n := len(x.refMore); n > 0 {
			for id, m := range x.refMore {
				if len(m) < 2 {
					t.Fatalf("step %d: %s kept a set of %d", step, id, len(m))
				}
			}
		}
	}
}
