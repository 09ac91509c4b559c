package sessions

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestPendingTurnTotal_MatchesFullCount: after every random import (new
// sessions, longer chains, new branches, tool rows), marker write and
// forget, for two workspaces, the cached total equals a full count, and a
// second store on the same file (another process) sees the same.
func TestPendingTurnTotal_MatchesFullCount(t *testing.T) {
	s := mustOpen(t)
	other, err := Open(s.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	r := rand.New(rand.NewPCG(4, 14))
	var nodes []Key
	parent := map[string]string{} // session → last node id
	for step := range 200 {
		switch op := r.IntN(10); {
		case op < 5: // import a few turns
			var lines []string
			for range 1 + r.IntN(4) {
				session := fmt.Sprintf("s%d", r.IntN(6))
				id := fmt.Sprintf("m%d", step*10+len(lines))
				tr := turn{Session: session, ID: id, Role: []string{"user", "assistant", "tool"}[r.IntN(3)],
					Content: "hello " + id, Time: "2026-08-10T12:00:00Z"}
				if p := parent[session]; p != "" && r.IntN(5) > 0 {
					tr.Parent = p // else a new root: another branch
				}
				parent[session] = id
				nodes = append(nodes, Key{Provider: DefaultProvider, Session: session, ID: id})
				lines = append(lines, tr.line())
			}
			if _, err := s.Import(strings.NewReader(strings.Join(lines, "\n") + "\n")); err != nil {
				t.Fatal(err)
			}
		case op < 8 && len(nodes) > 0: // mark a few written
			var mark []Key
			for range 1 + r.IntN(5) {
				mark = append(mark, nodes[r.IntN(len(nodes))])
			}
			if err := other.MarkWritten(mark, []string{"ws-a", "ws-b"}[r.IntN(2)]); err != nil {
				t.Fatal(err)
			}
		case len(nodes) > 0: // forget one
			n := nodes[r.IntN(len(nodes))]
			if _, err := s.Forget(Selector{SourceIDs: []string{n.Provider + "/" + n.Session + "/" + n.ID}}, time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		for _, ws := range []string{"ws-a", "ws-b"} {
			want, err := s.countAll(ws)
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range []*Store{s, other} {
				if got, err := st.PendingTurnTotal(ws); err != nil || got != want {
					t.Fatalf("step %d %s: cached total %d, %v; full count %d", step, ws, got, err, want)
				}
			}
		}
	}
}
