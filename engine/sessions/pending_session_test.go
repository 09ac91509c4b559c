package sessions

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPendingSessionTurns_UnionOfBranches: the session-wide read is the
// union of its branches' pending turns, each once, in storage order.
func TestPendingSessionTurns_UnionOfBranches(t *testing.T) {
	order := []string{"p1", "p2", "p3", "a1", "a2", "b1", "b2", "b3"}
	for _, mark := range [][]string{nil, {"p1", "p2", "p3"}, {"p2"}, {"p1", "p2", "p3", "b1", "b2", "b3"},
		{"p1", "p2", "p3", "a1"}, order} {
		s := forked(t)
		if err := s.MarkWritten(keys(mark...), "ws1"); err != nil && len(mark) > 0 {
			t.Fatal(err)
		}
		union := map[string]bool{}
		for _, tip := range []string{"a2", "b3"} {
			for _, id := range strings.Split(pending(t, s, tip, "ws1"), ",") {
				union[id] = id != ""
			}
		}
		var want []string
		for _, id := range order {
			if union[id] {
				want = append(want, id)
			}
		}
		got, err := s.PendingSessionTurns(SessionKey{DefaultProvider, "s1"}, "ws1")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(got), want) {
			t.Errorf("marked %v: session pending %v, want %v", mark, ids(got), want)
		}
	}
	s := forked(t)
	if _, err := s.PendingSessionTurns(SessionKey{DefaultProvider, "nope"}, "ws1"); !errors.Is(err, ErrSessionNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	if _, err := s.PendingSessionTurns(SessionKey{DefaultProvider, "s1"}, ""); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty workspace: %v", err)
	}
}

// TestPendingSessionTurns_Roots: turns without parents are each a branch;
// the session's pending turns are all of them, in order.
func TestPendingSessionTurns_Roots(t *testing.T) {
	s := mustOpen(t)
	var turns []turn
	for _, id := range []string{"m1", "m2", "m3", "m4"} {
		turns = append(turns, turn{ID: id, Role: "user", Content: "message " + id})
	}
	mustImport(t, s, jsonl(turns...))
	if err := s.MarkWritten(keys("m2"), "ws1"); err != nil {
		t.Fatal(err)
	}
	got, err := s.PendingSessionTurns(SessionKey{DefaultProvider, "s1"}, "ws1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ids(got), []string{"m1", "m3", "m4"}) {
		t.Errorf("pending %v", ids(got))
	}
}

// TestAnyForgotten: one answer for a batch of keys, a forgotten node
// among thousands found, an unknown key an error.
func TestAnyForgotten(t *testing.T) {
	s := forked(t)
	all := keys("p1", "p2", "p3", "a1", "a2", "b1", "b2", "b3")
	if got, err := s.AnyForgotten(all); err != nil || got {
		t.Fatalf("before forget: %v, %v", got, err)
	}
	// More keys than one chunk, repeated, still one answer.
	var many []Key
	for range forgottenChunk/4 + 1 {
		many = append(many, all...)
	}
	if got, err := s.AnyForgotten(many); err != nil || got {
		t.Fatalf("many keys: %v, %v", got, err)
	}
	if _, err := s.Forget(Selector{SourceIDs: []string{DefaultProvider + "/s1/b2"}}, time.Date(2026, 8, 11, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.AnyForgotten(all); err != nil || !got {
		t.Errorf("after forgetting b2: %v, %v", got, err)
	}
	if got, err := s.AnyForgotten(keys("p1", "a1")); err != nil || got {
		t.Errorf("keys without b2: %v, %v", got, err)
	}
	if _, err := s.AnyForgotten(keys("p1", "zz")); !errors.Is(err, ErrNodeNotFound) {
		t.Errorf("unknown key: %v", err)
	}
}
