package tui

import (
	"testing"
)

// Reject two sources picked with space, with a reason, after a dialog
// naming both speakers; then the rejected list, where p reverses one.
func TestFlow_RejectWithMultiSelect(t *testing.T) {
	f := newFakeBackend()
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads", "1 rejected (R)")
	send(tm, "space", "space", "x")
	waitFor(t, tm, "reason:")
	tm.Type("off topic")
	waitFor(t, tm, "off topic")
	send(tm, "enter")
	waitFor(t, tm, "Reject 2 sources from telegram/group-42?", "m101 · B (u456) — identity verified",
		"m102 · Carol (u789) — identity verified")
	send(tm, "y")
	waitFor(t, tm, "rejected 2 sources from telegram/group-42: out of the review queue", "2 sources in 2 threads · 3 rejected (R)")
	send(tm, "R")
	waitFor(t, tm, "Rejected sources", "3 sources in 1 thread")
	send(tm, "G", "p")
	waitFor(t, tm, "Reverse the rejection: Promote 1 source from telegram/group-42?")
	send(tm, "y")
	waitFor(t, tm, "promoted 1 source from telegram/group-42, now trusted")
	v := finalView(t, tm)
	mustContain(t, v, "Rejected sources", "2 sources in 1 thread")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls["Reject"] != 1 || len(f.rejected) != 2 {
		t.Fatalf("Reject calls %d, rejected %+v", f.calls["Reject"], f.rejected)
	}
	for _, r := range f.rejected {
		if r.Ref != spamRef && r.Reason != "off topic" {
			t.Errorf("rejected %s with reason %q, want off topic", r.Ref, r.Reason)
		}
	}
}

// Esc in the reason input cancels: nothing is rejected.
func TestFlow_RejectReasonEscCancels(t *testing.T) {
	f := newFakeBackend()
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "x")
	waitFor(t, tm, "reason:")
	send(tm, "esc")
	waitFor(t, tm, "rejection cancelled, nothing changed")
	finalView(t, tm)
	if n := f.count("Reject"); n != 0 {
		t.Errorf("Reject called %d times after esc", n)
	}
}

// Open an audit entry's diff, go back, and drill down to a rejected
// source's record from its entry.
func TestFlow_AuditDiffAndRecord(t *testing.T) {
	tm := startProgram(t, newFakeBackend())
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "7")
	waitFor(t, tm, "Audit trail", "6 entries, newest first", "› 2026-08-11 11:20 reject")
	send(tm, "down", "enter")
	waitFor(t, tm, "Diff · write · r41", "+<!-- source-id:openprogram/group-ops/m7 -->")
	send(tm, "esc")
	waitFor(t, tm, "› 2026-08-11 10:00 write")
	send(tm, "up", "o")
	waitFor(t, tm, "Source archive", "sources/telegram/_v2/group-42.md", "win a free phone")
	send(tm, "esc")
	waitFor(t, tm, "Audit trail")
	v := finalView(t, tm)
	mustContain(t, v, "[7 Audit]", "› 2026-08-11 11:20 reject", "reason: spam link")
	mustNotContain(t, v, "› source")
}
