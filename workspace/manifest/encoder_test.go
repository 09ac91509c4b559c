package manifest

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestEncoder_MatchesEncode: over random puts, deletes and in-place
// changes of entries (a slice element, a signature, a hash), the
// Encoder's bytes are Encode's after every step.
func TestEncoder_MatchesEncode(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	m := New()
	var c Encoder
	pick := func(n int) []string {
		var out []string
		for range r.IntN(n) {
			out = append(out, fmt.Sprintf("%08x", r.IntN(50)))
		}
		return out
	}
	for step := range 400 {
		p := fmt.Sprintf("topics/t%02d.md", r.IntN(30))
		switch e := m.Get(p); {
		case e != nil && r.IntN(4) == 0:
			m.Delete(p)
		case e != nil && len(e.Blocks) > 0 && r.IntN(3) == 0:
			e.Blocks[r.IntN(len(e.Blocks))] = "changed" // the same slice, new contents
		case e != nil && r.IntN(2) == 0:
			e.Sig.MtimeNS++
			if r.IntN(2) == 0 {
				e.SHA256 = Hash([]byte(p))
			}
		default:
			m.Put(&Entry{Path: p, Sig: Sig{Size: int64(r.IntN(9)), Ino: uint64(step)}, Blocks: pick(4),
				Cites: pick(2), Records: r.IntN(3), Pending: pick(2), Foreign: pick(2)})
		}
		if got, want := c.Encode(m, int64(step)), m.Encode(int64(step)); string(got) != string(want) {
			t.Fatalf("step %d:\n%s\nwant\n%s", step, got, want)
		} else if cap(got) != len(got) {
			t.Fatalf("step %d: %d bytes in a buffer of %d: not sized before joining", step, len(got), cap(got))
		}
	}
}
