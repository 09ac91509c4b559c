package tui

import "testing"

// TestSearch_RecallMode: R turns the search pane into what an agent is
// given for a prompt; enter recalls (never searches), tab stays on the
// prompt, enter on a line opens it, R goes back to search.
func TestSearch_RecallMode(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("5", "R")
	mustContain(t, h.view(), "Recall", "what an agent is given for a prompt")
	h.press("/")
	h.typeText("budget tracker")
	h.press("tab") // a prompt has no filters: still typing into it
	h.typeText(" flask")
	h.press("enter")
	if h.f.count("Recall") != 1 || h.f.count("Search") != 1 {
		t.Fatalf("Recall calls %d (the fake's recall searches once: %d)", h.f.count("Recall"), h.f.count("Search"))
	}
	v := h.view()
	mustContain(t, v, "items ·", "of 1000 tokens", "core    2026-08-10 topics/core.md#^",
		"prompt")
	// The cursor starts on the first line; enter opens it in the topics pane.
	h.press("enter")
	if h.m.Active() != PaneTopics || h.m.topics.Path() != "topics/core.md" {
		t.Fatalf("enter on a recalled block: pane %v path %s", h.m.Active(), h.m.topics.Path())
	}
	// Back to search: the same prompt box, searching again.
	h.press("5", "R", "/", "enter")
	if h.f.count("Search") != 2 || h.f.count("Recall") != 1 {
		t.Fatalf("after R: Search %d, Recall %d", h.f.count("Search"), h.f.count("Recall"))
	}
	mustContain(t, h.view(), "sorted by score")
}
