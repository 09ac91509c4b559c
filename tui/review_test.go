package tui

import (
	"strings"
	"testing"
)

// An entry that changed no file opens its source record; one whose diff
// left with its proposal says so; the empty pass has nothing to open.
func TestAudit_EnterOpensWhatTheEntryHas(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("7", "enter") // the rejection: no diff, one source
	if h.m.State() != StateDrilled {
		t.Fatalf("enter on a rejection: state %v, want the source drill-down", h.m.State())
	}
	if sel, ok := h.m.archive.Selected(); !ok || sel.Ref != spamRef {
		t.Fatalf("drilled to %+v, want %s", sel, spamRef)
	}
	mustContain(t, h.view(), "speaker Eve (u555) — identity verified · record pending review")
	h.press("esc", "down", "down", "down", "enter") // the declined proposal
	if text, _ := h.m.Status(); !strings.Contains(text, "its diff is gone with the proposal it declined") {
		t.Errorf("status after enter on a declined proposal = %q", text)
	}
	h.press("down", "enter") // the empty pass
	if text, _ := h.m.Status(); !strings.Contains(text, "nothing to open") || h.m.audit.DiffOpen() {
		t.Errorf("status after enter on an empty pass = %q (diff open %v)", text, h.m.audit.DiffOpen())
	}
	h.press("/")
	h.typeText("craig")
	h.press("enter")
	mustContain(t, h.view(), "filter: craig  (2 shown")
}

// A promoted record never reads as pending: after promoting m102 the
// footnote drill-down from the block citing it says record trusted.
func TestPromote_RecordReadsTrustedAfterwards(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("down", "p", "y")
	if text, _ := h.m.Status(); !strings.Contains(text, "promoted 1 source from telegram/group-42") {
		t.Fatalf("status = %q", text)
	}
	h.press("2", "down", "down", "enter", "enter", "enter")
	if h.m.State() != StateDrilled {
		t.Fatalf("state %v, want drilled:\n%s", h.m.State(), h.view())
	}
	v := h.view()
	mustContain(t, v, "telegram/group-42/m102  ◀ cited", "speaker Carol (u789) — identity verified · record trusted")
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "m102") && strings.Contains(line, "pending") {
			t.Errorf("the promoted record still reads pending: %q", line)
		}
	}
	h.press("esc")
	mustNotContain(t, h.view(), "pending: a cited source is pending")
}
