package local

import (
	"context"
	"sync"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// Issue 24: two serves of one workspace. Started together, one could
// unlink the other's live socket; and when the one that served exited,
// the other never took the socket over. Exactly one serves at any time,
// and the survivor takes over.
func TestServe_OneOwnerThenTheSurvivor(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	state := shortState(t)
	first := openWith(t, state, "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	for round := 0; round < 5; round++ {
		const n = 6
		servers := make([]*Server, n)
		var wg sync.WaitGroup
		for i := range servers {
			e := first
			if i > 0 {
				e = openWith(t, state, "")
			}
			wg.Add(1)
			go func(i int, e *engine.Engine) {
				defer wg.Done()
				servers[i] = Serve(context.Background(), e)
			}(i, e)
		}
		wg.Wait()
		serving := func() []*Server {
			var out []*Server
			for _, s := range servers {
				if s.Serving() {
					out = append(out, s)
				}
			}
			return out
		}
		owners := serving()
		if len(owners) != 1 {
			t.Fatalf("round %d: %d servers serve the socket, want 1", round, len(owners))
		}
		waitReady(t, owners[0])
		if _, ok := Search(first.Root(), result.SearchQuery{Text: "bees"}, 2*time.Second); !ok || owners[0].Answered() != 1 {
			t.Fatalf("round %d: the owner did not answer (answered %d): its socket was unlinked", round, owners[0].Answered())
		}
		// The owner exits: one of the others takes over.
		owners[0].Close()
		deadline := time.Now().Add(10 * time.Second)
		var next []*Server
		for time.Now().Before(deadline) {
			if next = serving(); len(next) == 1 && next[0].Ready() {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if len(next) != 1 || next[0] == owners[0] {
			t.Fatalf("round %d: after the owner exited, %d servers serve", round, len(next))
		}
		if _, ok := Search(first.Root(), result.SearchQuery{Text: "bees"}, 2*time.Second); !ok || next[0].Answered() != 1 {
			t.Fatalf("round %d: the survivor does not answer", round)
		}
		for _, s := range servers {
			s.Close()
		}
		if _, ok := Search(first.Root(), result.SearchQuery{Text: "bees"}, 200*time.Millisecond); ok {
			t.Fatalf("round %d: answered after every server closed", round)
		}
	}
}
