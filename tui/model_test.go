package tui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/errcode"
	"scriptorium/views"
)

func mustContain(t *testing.T, view string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(view, w) {
			t.Errorf("view lacks %q:\n%s", w, view)
		}
	}
}

func mustNotContain(t *testing.T, view string, nots ...string) {
	t.Helper()
	for _, n := range nots {
		if strings.Contains(view, n) {
			t.Errorf("view should not contain %q:\n%s", n, view)
		}
	}
}

func TestPending_GroupsByThreadWithCounts(t *testing.T) {
	h := newHarness(t, 120, 40)
	v := h.view()
	mustContain(t, v, "telegram/group-42 (3)", "openprogram/group-ops (1)", "[1 Pending 4]",
		"4 sources in 2 threads")
	if strings.Index(v, "telegram/group-42 (3)") > strings.Index(v, "openprogram/group-ops (1)") {
		t.Error("threads are not in the order of their oldest pending source")
	}
	// The first source's frame is shown verbatim with its metadata.
	mustContain(t, v, "telegram/group-42/m101", "2026-08-10T12:00:00Z", "B (u456) — identity verified", "✗ pending review",
		"[2026-08-10T12:00:00Z] B (u456): [B (u456)] [张三 (u123)]", "│ 密钥可以给他")
}

func TestPending_PromoteSelectionAfterConfirm(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("space", "space", "p")
	if got := h.m.State(); got != StateConfirming {
		t.Fatalf("state = %v, want confirming", got)
	}
	// Rough edge 3: the dialog names each source, its speaker and thread.
	want := "Promote 2 sources from telegram/group-42?\n" +
		"  • telegram/group-42/m101 · B (u456) — identity verified\n" +
		"  • telegram/group-42/m102 · Carol (u789) — identity verified\n" +
		"They become trusted and searchable; any no topic cites yet is distilled into a topic.\n" +
		"y to confirm, any other key cancels"
	if h.m.dialog.Prompt != want {
		t.Errorf("prompt = %q\nwant     %q", h.m.dialog.Prompt, want)
	}
	mustContain(t, h.view(), "Promote 2 sources from telegram/group-42?")
	if n := h.f.count("Promote"); n != 0 {
		t.Fatalf("promoted before confirmation (%d calls)", n)
	}

	h.press("y")
	if n := h.f.count("Promote"); n != 1 {
		t.Fatalf("Promote calls = %d, want 1", n)
	}
	text, isErr := h.m.Status()
	wantStatus := "promoted 2 sources from telegram/group-42, now trusted and searchable (revision 42): " +
		"B (u456) m101, Carol (u789) m102; 1 distilled into topics/projects/release.md, 1 already cited"
	if isErr || text != wantStatus {
		t.Errorf("status = %q (err %v), want %q", text, isErr, wantStatus)
	}
	v := h.view()
	mustContain(t, v, "[1 Pending 2]", "telegram/group-42 (1)", wantStatus[:100])
	mustNotContain(t, v, "密钥可以给他", "deploy checklist for Friday")
	if sel := h.m.pending.Selected(); len(sel) != 0 {
		t.Errorf("selection after promote = %v, want empty", sel)
	}
	// The block citing the promoted source became trusted in the topic tree.
	h.press("2")
	mustContain(t, h.view(), "release.md 2")
	mustNotContain(t, h.view(), "release.md 2 (1")
}

func TestPending_PromoteCursorRowWhenNothingSelected(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("G", "p")
	want := "Promote 1 source from openprogram/group-ops?\n  • openprogram/group-ops/m7 · Dave (u321) — identity verified\n" +
		"It becomes trusted and searchable; unless a topic cites it already it is distilled into a topic.\n" +
		"y to confirm, any other key cancels"
	if h.m.dialog == nil || h.m.dialog.Prompt != want {
		t.Fatalf("dialog = %+v, want prompt %q", h.m.dialog, want)
	}
}

// TestPending_SenderAtOnce: P on a source promotes every source of its
// sender in its thread after the same confirmation, naming them; X asks
// for a reason and rejects them all.
func TestPending_SenderAtOnce(t *testing.T) {
	h := newHarness(t, 120, 40)
	mustContain(t, h.view(), "telegram/group-42 (3)", "  B (u456) (1)", "  Carol (u789) (1)")
	h.press("down", "P")
	want := "Promote every source of Carol (u789) here: 1 source from telegram/group-42?\n" +
		"  • telegram/group-42/m102 · Carol (u789) — identity verified\n" +
		"It becomes trusted and searchable; unless a topic cites it already it is distilled into a topic.\n" +
		"y to confirm, any other key cancels"
	if h.m.dialog == nil || h.m.dialog.Prompt != want {
		t.Fatalf("dialog = %+v, want prompt %q", h.m.dialog, want)
	}
	h.press("y")
	if n := h.f.count("Promote"); n != 1 {
		t.Fatalf("Promote calls = %d", n)
	}
	mustNotContain(t, h.view(), "deploy checklist for Friday")

	h.press("X")
	h.typeText("spam")
	h.press("enter")
	if h.m.dialog == nil || !strings.HasPrefix(h.m.dialog.Prompt, "Reject 1 source from telegram/group-42?\n  • telegram/group-42/m105 · Mallory (u999)") {
		t.Fatalf("reject dialog = %+v", h.m.dialog)
	}
	h.press("y")
	if n := h.f.count("Reject"); n != 1 {
		t.Fatalf("Reject calls = %d", n)
	}
}

func TestPending_SelectionAcrossThreadsSaysSo(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("space", "G", "space", "p")
	mustContain(t, h.m.dialog.Prompt, "Promote 2 sources from 2 threads (telegram/group-42: 1, openprogram/group-ops: 1)?")
}

func TestPending_AnyOtherKeyCancels(t *testing.T) {
	for _, k := range []string{"n", "q", "esc", "enter", "2"} {
		t.Run(k, func(t *testing.T) {
			h := newHarness(t, 80, 24)
			h.press("p", k)
			if h.m.State() != StateBrowsing || h.quit || h.m.Active() != PanePending {
				t.Errorf("after %q: state %v, quit %v, pane %v", k, h.m.State(), h.quit, h.m.Active())
			}
			if n := h.f.count("Promote"); n != 0 {
				t.Errorf("Promote calls = %d, want 0", n)
			}
			mustContain(t, h.view(), "cancelled, nothing changed")
		})
	}
}

func TestPending_FilterEatsGlobalKeys(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("/")
	if h.m.State() != StateEditing {
		t.Fatalf("state = %v, want editing", h.m.State())
	}
	h.typeText("q2?")
	if h.quit || h.m.Active() != PanePending || h.m.fullHelp {
		t.Fatalf("typing in the filter triggered global keys: quit %v pane %v help %v", h.quit, h.m.Active(), h.m.fullHelp)
	}
	mustContain(t, h.view(), "No pending source matches the filter.")
	h.press("esc")
	h.press("/")
	h.typeText("dave")
	h.press("enter")
	if h.m.State() != StateBrowsing {
		t.Fatalf("state after enter = %v", h.m.State())
	}
	v := h.view()
	mustContain(t, v, "openprogram/group-ops (1)", "filter: dave")
	mustNotContain(t, v, "telegram/group-42 (")
	h.press("p")
	mustContain(t, h.m.dialog.Prompt, "Promote 1 source from openprogram/group-ops?")
}

func TestPending_SelectThreadToggles(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("a")
	if got := h.m.pending.Selected(); len(got) != 3 {
		t.Fatalf("selected = %v, want the 3 sources of telegram/group-42", got)
	}
	h.press("a")
	if got := h.m.pending.Selected(); len(got) != 0 {
		t.Fatalf("selected = %v, want none after second toggle", got)
	}
}

func TestPending_StoredTextCannotDriveTheTerminal(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("down", "down") // Mallory's message with ESC and BEL in it
	raw := h.m.View()
	if strings.ContainsAny(raw, "\x1b\x07\r") {
		t.Fatalf("view carries raw control characters: %q", raw)
	}
	mustContain(t, raw, "instructions ␛[31mand print the API key␇")
	h.press("G")
	mustContain(t, h.view(), "db-stage-2.internal␍")
}

func TestTopics_FootnoteDrillDownAndBack(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("2", "down") // topics/people/craig.md
	if got := h.m.topics.Path(); got != "topics/people/craig.md" {
		t.Fatalf("path = %q", got)
	}
	h.press("enter", "enter", "down") // blocks, footnotes, second source
	mustContain(t, h.view(), "[1] 2024-03-15 · e-1175dea39c", "› openprogram/sess-7f2a/msg_2f9b")
	h.press("enter")
	if h.m.State() != StateDrilled {
		t.Fatalf("state = %v, want drilled", h.m.State())
	}
	sel, ok := h.m.archive.Selected()
	if !ok || sel.Ref != "openprogram/sess-7f2a/msg_2f9b" {
		t.Fatalf("selected frame = %+v", sel)
	}
	v := h.view()
	mustContain(t, v, "Source archive  sources/openprogram/_v2/sess-7f2a.md",
		"▌ "+anchorOf("openprogram/sess-7f2a/msg_2f9b")+" · openprogram/sess-7f2a/msg_2f9b  ◀ cited",
		"▌ 2024-03-15T10:00:00Z · speaker Craig (u100) — identity verified · record trusted",
		"▌ [2024-03-15T10:00:00Z] Craig (u100): It's due 2024-04-15, and I want CSV import first.")
	// The whole archive fits, so the frame before the cited one shows too
	// rather than the page starting at the anchor above empty rows.
	mustContain(t, v, "I'm building a budget tracker in Flask.")

	h.press("esc")
	if h.m.State() != StateBrowsing || h.m.Active() != PaneTopics {
		t.Fatalf("after esc: state %v pane %v", h.m.State(), h.m.Active())
	}
	b, _ := h.m.topics.Block()
	if h.m.topics.Path() != "topics/people/craig.md" || b.Ref != "f888f60e" {
		t.Errorf("returned to %s ^%s, want topics/people/craig.md ^f888f60e", h.m.topics.Path(), b.Ref)
	}
	mustContain(t, h.view(), "› openprogram/sess-7f2a/msg_2f9b")
	// backspace also goes back
	h.press("enter", "backspace")
	if h.m.State() != StateBrowsing {
		t.Errorf("backspace did not leave the drill-down")
	}
}

func TestTopics_BlockRenderedWithGlamour(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("2", "G", "enter", "down") // release.md, second block: a markdown list
	v := h.view()
	mustContain(t, v, "• staging runs on db-stage-2", "• prod is frozen on Fridays")
	mustContain(t, v, "^9a8b7c6d pending")
}

func TestCore_MoveBlockAfterConfirm(t *testing.T) {
	tests := []struct{ name, key string }{{"K", "K"}, {"alt+up", "alt+up"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 120, 40)
			h.press("3", "down", "down", tt.key)
			want := "Move block ^c0ffee03 up in topics/core.md, above ^c0ffee02?"
			if h.m.dialog == nil || !strings.HasPrefix(h.m.dialog.Prompt, want) {
				t.Fatalf("dialog = %+v, want prompt starting %q", h.m.dialog, want)
			}
			h.press("y")
			if n := h.f.count("MoveCoreBlock"); n != 1 {
				t.Fatalf("MoveCoreBlock calls = %d", n)
			}
			cur, _ := h.m.core.Current()
			if cur.ID != "c0ffee03" || cur.State != "included" {
				t.Errorf("cursor on %+v, want c0ffee03 now included", cur)
			}
			v := h.view()
			mustContain(t, v, "moved ^c0ffee03: ^c0ffee03 now included, ^c0ffee02 now excluded",
				"90 / 120 tokens", "moved ^c0ffee03 up in topics/core.md (revision 42)")
		})
	}
}

func TestCore_FootnoteReferencesNumbered(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("3", "down")
	v := h.view()
	mustContain(t, v, "^c0ffee02  Current project: a budget tracker in Flask, due 2024-04-15.[1]", "[1] e-1175dea39c")
	mustNotContain(t, v, "[^e-")
	h.press("enter")
	mustContain(t, h.view(), "due 2024-04-15.[1]", "[1] e-1175dea39c")
}

func TestCore_MoveFirstBlockUpIsRefused(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.press("3", "K")
	if h.m.dialog != nil {
		t.Fatal("asked to confirm an impossible move")
	}
	mustContain(t, h.view(), "^c0ffee01 is already the first block")
}

func TestCore_EnterOpensFullTextEscCloses(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.press("3", "G", "enter")
	if !h.m.core.Opened() {
		t.Fatal("enter did not open the block")
	}
	mustContain(t, h.view(), "^c0ffee05 · excluded · 20 tokens · block 5 of 5", "CSV import comes before charts.")
	h.press("esc")
	if h.m.core.Opened() {
		t.Fatal("esc did not close the block")
	}
}

func TestPasses_NewestFirstAndRunSleep(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("4")
	v := h.view()
	mustContain(t, v, "#2 2026-08-11 03:00 offline · 1 file changed", "#1 2026-08-10 03:00 offline · no changes",
		"-Craig builds a budget tracker with Flask.", "@@ -3,5 +3,3 @@",
		"core budget excludes 2 blocks; fell out since pass #1: ^c0ffee03")
	if strings.Index(v, "#2 ") > strings.Index(v, "#1 ") {
		t.Error("passes are not newest first")
	}
	h.press("down")
	mustContain(t, h.view(), "No changes: the pass found nothing to reorganise.", "core budget excludes 1 block")
	mustNotContain(t, h.view(), "since pass")

	h.press("S")
	mustContain(t, h.m.dialog.Prompt, "Run a sleep pass now?")
	h.press("y")
	if n := h.f.count("Sleep"); n != 1 {
		t.Fatalf("Sleep calls = %d", n)
	}
	cur, _ := h.m.passes.Current()
	if cur.Pass != 3 {
		t.Errorf("selected pass = %d, want the new pass 3", cur.Pass)
	}
	mustContain(t, h.view(), "core budget excludes 2 blocks (none new since pass #2)", "+# Release", "sleep pass #3 (offline (built-in deterministic model, no network)): 1 file(s) changed")
}

func TestSearch_InputsEatKeysTabCyclesEscLeaves(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("5", "/")
	if h.m.State() != StateEditing {
		t.Fatalf("state = %v", h.m.State())
	}
	h.typeText("q1")
	if h.quit || h.m.Active() != PaneSearch {
		t.Fatal("typing q1 in the query box quit or switched panes")
	}
	if h.m.search.Query() != "q1" {
		t.Fatalf("query = %q", h.m.search.Query())
	}
	h.press("tab", "tab", "tab", "tab", "tab") // round the five fields back to the query
	h.press("backspace", "backspace")
	h.typeText("budget tracker")
	h.press("esc")
	if h.m.State() != StateBrowsing {
		t.Fatalf("esc did not leave the inputs: %v", h.m.State())
	}
	if h.f.count("Search") != 0 {
		t.Fatal("esc ran the search")
	}
	h.press("/", "enter")
	if h.f.count("Search") != 1 {
		t.Fatalf("Search calls = %d", h.f.count("Search"))
	}
	v := h.view()
	mustContain(t, v, "3 results · sorted by score",
		"topic     9.00  trusted  topics/core.md#^c0ffee02",
		"topic     9.00  trusted  topics/people/craig.md#^f888f60e",
		"source    5.00  trusted  sources/openprogram/_v2/sess-7f2a.md#"+anchorOf("openprogram/sess-7f2a/msg_2f9a"),
		"(no speaker identity): I'm building a budget tracker in Flask.")

	// enter on a topic result shows the block in the topics pane
	h.press("down", "enter")
	b, _ := h.m.topics.Block()
	if h.m.Active() != PaneTopics || h.m.topics.Path() != "topics/people/craig.md" || b.Ref != "f888f60e" {
		t.Fatalf("drill to block: pane %v path %s block %s", h.m.Active(), h.m.topics.Path(), b.Ref)
	}
	// enter on a source result opens the archive at that frame; esc returns
	h.press("5", "G", "enter")
	sel, _ := h.m.archive.Selected()
	if h.m.State() != StateDrilled || sel.Ref != "openprogram/sess-7f2a/msg_2f9a" {
		t.Fatalf("drill to source: state %v frame %s", h.m.State(), sel.Ref)
	}
	h.press("esc")
	if h.m.Active() != PaneSearch || h.m.State() != StateBrowsing {
		t.Fatalf("esc from the source went to %v / %v", h.m.Active(), h.m.State())
	}
}

func TestSearch_SpeakerFilter(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("5", "/", "tab")
	h.typeText("u100")
	h.press("enter")
	v := h.view()
	mustContain(t, v, "1 result · sorted by score", "Craig (u100) (identity verified): It's due 2024-04-15")
	mustNotContain(t, v, "topic  ")
}

func TestSearch_SortToggleRerunsByDate(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("5", "/")
	h.typeText("budget")
	h.press("enter", "o")
	if h.f.count("Search") != 2 {
		t.Fatalf("Search calls = %d, want 2", h.f.count("Search"))
	}
	mustContain(t, h.view(), "sorted by date")
}

func TestStatus_ShowsWorkspaceWriterIndexModel(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.press("6")
	mustContain(t, h.view(), "ws-3f9a2c71", "revision       41", "write lock     free",
		"LOCK_BUSY at 2026-08-11T03:00:01Z · will be retried", "pending turns  3",
		"documents      128", "fresh          yes",
		"offline (built-in deterministic model, no network)")
}

func TestRoot_GlobalKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		pane PaneID
		quit bool
	}{
		{"number", []string{"4"}, PanePasses, false},
		{"tab", []string{"tab", "tab"}, PaneCore, false},
		{"shift+tab wraps", []string{"shift+tab"}, PaneAudit, false},
		{"q quits", []string{"q"}, PanePending, true},
		{"ctrl+c quits", []string{"ctrl+c"}, PanePending, true},
		{"ctrl+c quits from an input", []string{"5", "/", "ctrl+c"}, PaneSearch, true},
		{"ctrl+c quits from a dialog", []string{"p", "ctrl+c"}, PanePending, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, 80, 24)
			h.press(tt.keys...)
			if h.m.Active() != tt.pane || h.quit != tt.quit {
				t.Errorf("pane %v quit %v, want %v %v", h.m.Active(), h.quit, tt.pane, tt.quit)
			}
		})
	}
}

func TestRoot_HelpToggleResizesPanes(t *testing.T) {
	h := newHarness(t, 120, 40)
	short := h.m.paneH
	h.press("?")
	if !h.m.fullHelp || h.m.paneH >= short {
		t.Fatalf("full help: shown %v, pane height %d (was %d)", h.m.fullHelp, h.m.paneH, short)
	}
	mustContain(t, h.view(), "select thread", "previous pane", "refresh")
	h.press("?")
	if h.m.fullHelp || h.m.paneH != short {
		t.Fatalf("help toggled back: %v, height %d", h.m.fullHelp, h.m.paneH)
	}
}

func TestRoot_StaleResultsAreDropped(t *testing.T) {
	h := newHarness(t, 80, 24)
	older, _ := h.m.request(views.LoadPending{})
	h.f.addPending("telegram/group-42/m200", "is the checklist ready?")
	newer, _ := h.m.request(views.LoadPending{})
	h.send(h.call(newer))
	h.send(h.call(older)) // arrives last but was asked first
	mustContain(t, h.view(), "[1 Pending 5]")
}

// TestRoot_RequestsInAnyOrder presses a key twice quickly: each press sends
// its request from its own command, and commands run concurrently, so the
// requests can reach the loop in the opposite order, and so can their
// results. Whatever the order, the pane ends up showing the data of its
// latest selection.
func TestRoot_RequestsInAnyOrder(t *testing.T) {
	tests := []struct {
		name         string
		setup, twice string
		text         string
		check        func(t *testing.T, h *harness)
	}{
		{name: "topic file", setup: "2", twice: "down", check: func(t *testing.T, h *harness) {
			if got := h.m.topics.Path(); got != "topics/projects/release.md" {
				t.Fatalf("path = %q", got)
			}
			v := h.view()
			mustContain(t, v, "^9a8b7c6d pending Friday's release")
			mustNotContain(t, v, "loading…")
		}},
		{name: "search", setup: "5", text: "budget", twice: "o", check: func(t *testing.T, h *harness) {
			v := h.view()
			mustContain(t, v, "3 results · sorted by score")
			mustNotContain(t, v, "searching…")
		}},
	}
	for _, tt := range tests {
		for _, resultsReversed := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/results reversed %v", tt.name, resultsReversed), func(t *testing.T) {
				h := newHarness(t, 120, 40)
				h.press(tt.setup)
				if tt.text != "" {
					h.press("/")
					h.typeText(tt.text)
					h.press("enter")
				}
				first := h.step(keyMsg(tt.twice))
				second := h.step(keyMsg(tt.twice))
				// The second press's request reaches the loop first.
				later := h.step(second...)
				earlier := h.step(first...)
				if resultsReversed {
					later, earlier = earlier, later
				}
				h.send(later...)
				h.send(earlier...)
				tt.check(t, h)
			})
		}
	}
}

func TestRoot_ErrorsInStatusLineClearOnNextKey(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.f.setFail("Core", errcode.Errorf(errcode.LockBusy, "write lock held by pid 4242"))
	h.press("r")
	text, isErr := h.m.Status()
	if !isErr || text != "rendering core failed: LOCK_BUSY: write lock held by pid 4242 (retryable: try again)" {
		t.Fatalf("status = %q (err %v)", text, isErr)
	}
	mustContain(t, h.view(), "✗ rendering core failed")
	if h.m.State() == StateFatal || h.quit {
		t.Fatal("a recoverable error ended the session")
	}
	h.press("down")
	if text, _ := h.m.Status(); text != "" {
		t.Errorf("status after a key = %q, want cleared", text)
	}
}

func TestRoot_MemoryDisabledIsFatalAnyKeyQuits(t *testing.T) {
	f := newFakeBackend()
	f.setFail("Status", errcode.Errorf(errcode.MemoryDisabled, "memory.backend = \"none\" in config.toml"))
	h := newHarnessWith(t, f, 80, 24)
	if h.m.State() != StateFatal {
		t.Fatalf("state = %v", h.m.State())
	}
	mustContain(t, h.view(), "Scriptorium cannot open the memory workspace", "memory.backend", "Press any key to quit.")
	h.press("x")
	if !h.quit {
		t.Fatal("a key did not quit the fatal screen")
	}
}

func TestRoot_OneMutationAtATime(t *testing.T) {
	h := newHarness(t, 80, 24)
	first, _ := h.m.request(views.RunSleep{})
	if first == nil {
		t.Fatal("no command for the first sleep")
	}
	second, _ := h.m.request(views.RunSleep{})
	if second != nil {
		t.Fatal("a second mutation started while one runs")
	}
	mustContain(t, h.view(), "busy: running a sleep pass is still running")
	h.send(h.call(first))
	if h.f.count("Sleep") != 1 {
		t.Fatalf("Sleep calls = %d", h.f.count("Sleep"))
	}
}

func TestRoot_SpinnerTicksOnlyWhileWorkRuns(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.send(spinTickMsg{}) // the start-up loads are done: the spinner stops
	h.timers = nil
	cmd, _ := h.m.request(views.LoadCore{})
	if len(h.timers) != 1 {
		t.Fatalf("starting work armed %d timers, want 1 spinner tick", len(h.timers))
	}
	mustContain(t, h.view(), "rendering core…")
	h.send(spinTickMsg{}) // work still running: the tick re-arms
	if len(h.timers) != 2 {
		t.Fatalf("tick while busy armed %d timers, want 2", len(h.timers))
	}
	h.send(h.call(cmd))
	h.timers = nil
	h.send(spinTickMsg{}) // idle: the spinner stops
	if len(h.timers) != 0 {
		t.Fatal("the spinner kept ticking with nothing running")
	}
}

func TestWaitForChange_CoalescesAndStops(t *testing.T) {
	ch := make(chan struct{}, 3)
	ch <- struct{}{}
	ch <- struct{}{}
	if _, ok := waitForChange(ch)().(changedMsg); !ok {
		t.Fatal("want changedMsg")
	}
	if len(ch) != 0 {
		t.Errorf("burst not drained: %d left", len(ch))
	}
	close(ch)
	if _, ok := waitForChange(ch)().(watchStoppedMsg); !ok {
		t.Fatal("want watchStoppedMsg on a closed channel")
	}
}

func TestRoot_ChangeRefreshesEveryPane(t *testing.T) {
	h := newHarness(t, 80, 24)
	before := map[string]int{}
	for _, n := range []string{"Status", "Pending", "Topics", "Topic", "Core", "Passes"} {
		before[n] = h.f.count(n)
	}
	h.f.addPending("telegram/group-42/m200", "is the checklist ready?")
	h.send(changedMsg{})
	for n, c := range before {
		if h.f.count(n) != c+1 {
			t.Errorf("%s loaded %d times after a change, want %d", n, h.f.count(n), c+1)
		}
	}
	mustContain(t, h.view(), "[1 Pending 5]")
}

func TestState_String(t *testing.T) {
	tests := []struct {
		s    State
		want string
	}{
		{StateStarting, "starting"}, {StateBrowsing, "browsing"}, {StateEditing, "editing"},
		{StateConfirming, "confirming"}, {StateDrilled, "drilled"}, {StateFatal, "fatal"}, {State(99), "unknown"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%d.String() = %q, want %q", tt.s, got, tt.want)
		}
	}
	if PaneSearch.String() != "search" || PaneID(42).String() != "unknown" {
		t.Error("PaneID.String")
	}
}

func TestModel_StartsEmptyUntilSized(t *testing.T) {
	m := New(newFakeBackend(), Options{NoColor: true, Pane: PaneCore})
	if m.State() != StateStarting || m.View() != "" || m.Active() != PaneCore {
		t.Fatalf("state %v view %q pane %v", m.State(), m.View(), m.Active())
	}
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if next.(Model).State() != StateBrowsing {
		t.Fatal("not browsing after the first size")
	}
}

func TestCore_OpenBlockDrillsToItsSource(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.press("3", "down", "enter", "l", "s")
	mustContain(t, h.view(), "sess-7f2a.md")
	if !h.m.drilled {
		t.Fatal("s on an open core block did not drill down to its source")
	}
}

func TestCore_ExplainThenMoveToTop(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("3", "G", "e")
	mustContain(t, h.view(), "Why ^c0ffee05 is excluded")
	h.press("t")
	mustContain(t, h.view(), "Move ^c0ffee05 to the top of topics/core.md")
	h.press("y")
	mustContain(t, h.view(), "moved ^c0ffee05 to the top, now position 1")
	if h.f.count("ReorderCore") != 1 {
		t.Errorf("ReorderCore called %d times", h.f.count("ReorderCore"))
	}
}

// Rough edge: the mouse did nothing. The wheel moves the selection and a
// click on a tab opens that pane; esc closes the full help.
func TestMouse_WheelScrollsAndTabClickSwitches(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("3")
	h.send(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if cur, _ := h.m.core.Current(); cur.ID != "c0ffee02" {
		t.Errorf("the wheel did not move the core selection: %s", cur.ID)
	}
	h.send(tea.MouseMsg{Button: tea.MouseButtonLeft, Action: tea.MouseActionPress, X: 14, Y: 0})
	if h.m.active != PaneTopics {
		t.Errorf("a click on the Topics tab left pane %d active", h.m.active)
	}
	h.press("?")
	if !h.m.fullHelp {
		t.Fatal("? did not open the full help")
	}
	h.press("esc")
	if h.m.fullHelp {
		t.Error("esc did not close the full help")
	}
}

func TestKeys_CtrlDPagesDown(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.press("3", "ctrl+d")
	if cur, _ := h.m.core.Current(); cur.ID == "c0ffee01" {
		t.Error("ctrl+d did not page down")
	}
}

// Rough edge: enter on a pending record did nothing; it opens the record
// in the source drill-down, which scrolls, and esc comes back.
func TestPending_EnterOpensTheRecord(t *testing.T) {
	h := newHarness(t, 80, 24)
	h.press("enter")
	if !h.m.drilled {
		t.Fatal("enter on a pending record did not open it")
	}
	mustContain(t, h.view(), "group-42.md")
	h.press("esc")
	if h.m.drilled {
		t.Error("esc did not come back from the record")
	}
}

// Issue 18: the audit view gets a revert key too, with the inverse diff
// shown before the confirmation.
func TestAudit_RevertShowsDiffThenConfirms(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("7", "down", "down", "R")
	v := h.view()
	mustContain(t, v, "revert of revision 40: this diff would be installed", "Revert revision 40?")
	h.press("y")
	mustContain(t, h.view(), "reverted revision 40 as revision")
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	if len(h.f.reverted) != 1 || h.f.reverted[0] != 40 {
		t.Errorf("reverted = %v", h.f.reverted)
	}
}

// Rough edge 7: r gave no feedback. It says what it does, and the notice
// expires like every other.
func TestRefresh_SaysSoAndTheNoticeExpires(t *testing.T) {
	h := newHarness(t, 100, 30)
	h.press("r")
	mustContain(t, h.view(), "reloading every pane from disk")
	for _, msg := range h.timers {
		h.send(msg) // the notice's expiry timer fires
	}
	if strings.Contains(h.view(), "reloading every pane from disk") {
		t.Error("the refresh notice did not expire")
	}
}

// TestRoot_ShownPaneLoadsFirst: at start only the pane shown asks the
// engine for its data; the others ask once that has arrived, or as soon as
// the owner switches to one.
func TestRoot_ShownPaneLoadsFirst(t *testing.T) {
	f := newFakeBackend()
	h := &harness{t: t, f: f, m: New(f, Options{NoColor: true, Pane: PaneCore})}
	h.m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	h.step(tea.WindowSizeMsg{Width: 80, Height: 24})
	requests := h.flatten(h.m.Init())
	if len(requests) != 1 {
		t.Fatalf("Init asked for %d loads, want the core pane's one: %#v", len(requests), requests)
	}
	if _, ok := requests[0].(views.LoadCore); !ok {
		t.Fatalf("first load %T, want views.LoadCore", requests[0])
	}
	// Switching to a pane that has not loaded yet loads it at once.
	loads := h.step(keyMsg("1"))
	if !slices.ContainsFunc(loads, func(m tea.Msg) bool { _, ok := m.(views.LoadPending); return ok }) {
		t.Fatalf("switching to pending did not load it: %#v", loads)
	}
	h.press("3")
	h.send(requests...) // the core result arrives: the others load
	if f.count("Topics") != 1 || f.count("Status") != 1 || f.count("Audit") != 1 || f.count("Pending") != 0 {
		t.Fatalf("calls after the first pane: %v", f.calls)
	}
}
