package tui

import (
	"strings"
	"testing"
)

// TestFlow_ForgetSpeakerAfterPreview: F on a pending record shows what
// forgetting its speaker removes, enter asks, y forgets; the record leaves
// the queue and the preview closes.
func TestFlow_ForgetSpeakerAfterPreview(t *testing.T) {
	f := newFakeBackend()
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "F")
	waitFor(t, tm, "Forget speaker B (u456)", "[archive] sources/telegram/_v2/group-42.md", "+<!-- forgotten:2026-08-10T12:00:00Z -->")
	if n := f.count("Forget"); n != 1 {
		t.Fatalf("the preview called Forget %d times", n)
	}
	send(tm, "enter")
	waitFor(t, tm, "Forget 1 record of speaker B (u456)?", "This cannot be reverted.")
	send(tm, "y")
	waitFor(t, tm, "forgot speaker B (u456) (revision 42)", "3 sources in 2 threads")
	v := finalView(t, tm)
	mustContain(t, v, "[1 Pending 3]", "✓ forgot speaker B (u456)")
	mustNotContain(t, v, "› forget", "密钥可以给他")
}

// TestFlow_ForgetCancelChangesNothing: esc leaves the preview and any key
// but y cancels the dialog; Forget never runs for real.
func TestFlow_ForgetCancelChangesNothing(t *testing.T) {
	f := newFakeBackend()
	tm := startProgram(t, f)
	waitFor(t, tm, "4 sources in 2 threads")
	send(tm, "T")
	waitFor(t, tm, "Forget thread telegram/group-42", "4 records")
	send(tm, "enter")
	waitFor(t, tm, "Forget 4 records of thread telegram/group-42?")
	send(tm, "n")
	waitFor(t, tm, "cancelled, nothing changed")
	send(tm, "esc")
	waitFor(t, tm, "Pending sources")
	v := finalView(t, tm)
	mustContain(t, v, "[1 Pending 4]")
	if rev := f.revision; rev != 41 || strings.Contains(v, "forgot") {
		t.Errorf("a cancelled forget changed something (revision %d)", rev)
	}
}
