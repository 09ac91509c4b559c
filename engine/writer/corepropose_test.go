package writer_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine/proposals"
	"scriptorium/engine/writer"
	"scriptorium/render"
)

// Rough edge: the offline writer never created topics/core.md, so core.md
// stayed empty. A write that files the owner's standing preferences and
// instructions proposes them for core.md (and nothing else: not the
// owner's other facts); accepting it gives a valid core that renders.
func TestWrite_ProposesACoreWhenThereIsNone(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"I'm vegetarian.","time":"2026-01-01T10:00:00Z","tier":"owner"}
{"session":"s1","id":"m2","parent":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"My daughter plays the cello.","time":"2026-01-01T10:01:00Z","tier":"owner"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	ps, err := proposals.List(e)
	if err != nil || len(ps) != 1 {
		t.Fatalf("proposals = %+v, %v; want one core proposal", ps, err)
	}
	f, ok := ps[0].Files[render.CoreTopicPath]
	if !ok || f.Before != nil || !strings.Contains(string(f.After), "Craig is vegetarian.") || !strings.Contains(string(f.After), "Sources: [") ||
		strings.Contains(string(f.After), "cello") {
		t.Fatalf("the proposal does not create a cited topics/core.md: %+v", ps[0])
	}
	// A second write does not propose it again.
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if again, _ := proposals.List(e); len(again) != 1 {
		t.Errorf("%d proposals after a second write", len(again))
	}
	if _, err := proposals.Accept(ctx, e, ps[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	ftVerifyClean(t, e)
	rep, err := e.Core(ctx)
	if err != nil || len(rep.Included) == 0 {
		t.Errorf("core after accepting = %+v, %v", rep, err)
	}
	if data := ftRead(t, state, "core.md"); !strings.Contains(data, "vegetarian") {
		t.Errorf("core.md lacks the fact:\n%s", data)
	}
}

// Rough edge: a core.md candidate filed while another core proposal was
// waiting was dropped (a second proposal would conflict with the first),
// and never proposed later. It waits with the writer now and is proposed
// at the first write after the owner has answered the waiting one.
func TestWrite_ProposesCoreCandidatesFiledWhileOneWaits(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"I'm vegetarian.","time":"2026-01-01T10:00:00Z","tier":"owner"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	first, err := proposals.List(e)
	if err != nil || len(first) != 1 {
		t.Fatalf("proposals = %+v, %v; want one core proposal", first, err)
	}
	importTurns(t, state, `{"session":"s2","id":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"I prefer trains to planes, always book me a train.","time":"2026-01-02T10:00:00Z","tier":"owner"}
`)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if ps, _ := proposals.List(e); len(ps) != 1 {
		t.Fatalf("%d proposals while one waits; want the first alone", len(ps))
	}
	if _, err := proposals.Decline(ctx, e, first[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	// The next write proposes the candidate filed meanwhile.
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	ps, err := proposals.List(e)
	if err != nil || len(ps) != 1 {
		t.Fatalf("proposals after the owner answered = %+v, %v; want one", ps, err)
	}
	after := string(ps[0].Files[render.CoreTopicPath].After)
	if !strings.Contains(after, "trains") || strings.Contains(after, "vegetarian") {
		t.Errorf("the later proposal should hold the candidate filed meanwhile (and not the declined one):\n%s", after)
	}
	// Proposed once: another write does not propose it again.
	if _, err := proposals.Decline(ctx, e, ps[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if again, _ := proposals.List(e); len(again) != 0 {
		t.Errorf("%d proposals after the owner declined the last one; want none", len(again))
	}
}
