package writer_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/proposals"
	"scriptorium/engine/writer"
)

// rdThreadFiles are the topics/threads/ files of a state, by path.
func rdThreadFiles(t *testing.T, state string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, c := range wtTopics(t, state) {
		if strings.HasPrefix(p, "topics/threads/") {
			out[p] = c
		}
	}
	return out
}

// TestRedistill_ThreadFileHeadedAsTheWriterHeadsIt: a redistilled
// session's thread file is named and headed as the writer names and
// heads it for the same turns ("# The owner, 2026-08-10"), never
// "# Thread the-owner-2026-08-10-1200", its file name.
func TestRedistill_ThreadFileHeadedAsTheWriterHeadsIt(t *testing.T) {
	ctx := context.Background()
	state, e := rdState(t)
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	got := rdThreadFiles(t, state)

	// The same turns written by today's writer.
	fresh := filepath.Join(t.TempDir(), "state")
	wtImport(t, fresh, wtChain("",
		wtTurn{Session: "chat1", ID: "c1", Role: "user", Content: "Hi there!"},
		wtTurn{Session: "chat1", ID: "c2", Role: "assistant", Content: "Hello! How can I help you today?"},
		wtTurn{Session: "chat1", ID: "c3", Role: "user", Content: "I work as a nurse at St Mary's hospital in Leeds."},
		wtTurn{Session: "chat1", ID: "c4", Role: "assistant", Content: "Let me look at the rota options for you:"},
		wtTurn{Session: "chat1", ID: "c5", Role: "user", Content: "I prefer tea over coffee, always oat milk."},
		wtTurn{Session: "chat1", ID: "c6", Role: "user", Content: "Thanks!"},
	)...)
	if _, err := writer.Write(ctx, wtOpen(t, fresh, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	want := rdThreadFiles(t, fresh)
	if len(want) != 1 || len(got) != 1 {
		t.Fatalf("thread files: redistilled %v, written %v", got, want)
	}
	for p, w := range want {
		c, ok := got[p]
		if !ok {
			t.Fatalf("redistilled thread files %v, the writer names it %s", got, p)
		}
		gotHead, _, _ := strings.Cut(c, "\n")
		wantHead, _, _ := strings.Cut(w, "\n")
		if gotHead != wantHead {
			t.Errorf("%s is headed %q, the writer heads it %q", p, gotHead, wantHead)
		}
	}
}

// TestRedistill_ProposesCore: the owner's standing preferences that a
// redistill distils reach the core.md proposal as a write's do (issue 22
// §1): not in the redistill's own proposal (core.md stays the owner's
// until they answer), but queued, and proposed by the first write after
// the owner accepted the redistill, a write made while it waited
// included.
func TestRedistill_ProposesCore(t *testing.T) {
	ctx := context.Background()
	_, e := rdState(t)
	coreWaiting := func() string {
		t.Helper()
		waiting, err := proposals.List(e)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range waiting {
			if f, ok := p.Files["topics/core.md"]; ok {
				return string(f.After)
			}
		}
		return ""
	}
	if c := coreWaiting(); c != "" {
		t.Fatalf("a core proposal waits before the redistill:\n%s", c)
	}
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	// A write while the redistill waits (the hook runs it at every
	// prompt): the candidates are not in memory yet, and must not be lost.
	if _, err := writer.Write(ctx, e, writer.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if c := coreWaiting(); c != "" {
		t.Fatalf("core proposed before the redistill was accepted:\n%s", c)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	core := coreWaiting()
	if !strings.Contains(core, "tea") {
		t.Fatalf("no core proposal of the owner's preference after accept:\n%s", core)
	}
	for _, chat := range []string{"nurse", "Thanks", "Hi there"} {
		if strings.Contains(core, chat) {
			t.Errorf("core proposal holds %q, not a standing preference:\n%s", chat, core)
		}
	}
}
