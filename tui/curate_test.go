package tui

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// fakeEditor stands in for tea.ExecProcess and $EDITOR: each run shows it
// the file and replaces the text under the header with the next answer
// (nil: saves it unchanged); with no answer left it fails.
type fakeEditor struct {
	t       *testing.T
	answers []*string
	shown   []string
	argv    [][]string
}

func (f *fakeEditor) exec(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
	return func() tea.Msg {
		f.argv = append(f.argv, c.Args)
		file := c.Args[len(c.Args)-1]
		data, err := os.ReadFile(file)
		if err != nil {
			return done(err)
		}
		f.shown = append(f.shown, string(data))
		if len(f.answers) == 0 {
			return done(errors.New("exit status 1"))
		}
		a := f.answers[0]
		f.answers = f.answers[1:]
		if a != nil {
			var header []string
			for _, l := range strings.Split(string(data), "\n") {
				if l != "#" && !strings.HasPrefix(l, "# ") {
					break
				}
				header = append(header, l)
			}
			if err := os.WriteFile(file, []byte(strings.Join(header, "\n")+"\n\n"+*a+"\n"), 0o600); err != nil {
				f.t.Fatal(err)
			}
		}
		return done(nil)
	}
}

func text(s string) *string { return &s }

// editorHarness is a harness on the topics pane, blocks of craig.md
// focused, with the fake editor as $VISUAL.
func editorHarness(t *testing.T, answers ...*string) (*harness, *fakeEditor) {
	h := newHarness(t, 120, 40)
	ed := &fakeEditor{t: t, answers: answers}
	h.m.exec = ed.exec
	h.m.getenv = func(k string) string { return map[string]string{"VISUAL": "myeditor --wait"}[k] }
	h.press("2", "down", "enter") // topics/people/craig.md, its first block ^f888f60e
	return h, ed
}

func (h *harness) blockText(path, id string) string {
	h.f.mu.Lock()
	defer h.f.mu.Unlock()
	for _, b := range h.f.topics[path].Blocks {
		if b.Ref == id {
			return b.Text
		}
	}
	return ""
}

func TestEdit_RefusedTextReopensThenSaves(t *testing.T) {
	h, ed := editorHarness(t, text("Craig builds a tracker.\n\nSecond paragraph."), text("Craig builds a budget tracker in Go.[^e-1175dea39c]"))
	h.press("E")
	if len(ed.shown) != 2 {
		t.Fatalf("the editor ran %d times, want 2 (refused, then saved)", len(ed.shown))
	}
	if got := strings.Join(ed.argv[0], " "); !strings.Contains(got, `myeditor --wait "$@"`) {
		t.Errorf("editor command = %q", got)
	}
	if !strings.Contains(ed.shown[0], "# Editing block ^f888f60e of topics/people/craig.md (trusted).") ||
		!strings.HasSuffix(ed.shown[0], "\n\nCraig is building a **budget tracker** in Flask, due 2024-04-15.[^e-1175dea39c]\n") {
		t.Errorf("first file:\n%s", ed.shown[0])
	}
	if !strings.HasPrefix(ed.shown[1], "# NOT SAVED") || !strings.Contains(ed.shown[1], "line 1: the blank line after it splits") ||
		!strings.HasSuffix(ed.shown[1], "\n\nCraig builds a tracker.\n\nSecond paragraph.\n") {
		t.Errorf("second file (the refused text, reasons above it):\n%s", ed.shown[1])
	}
	if got := h.blockText("topics/people/craig.md", "f888f60e"); got != "Craig builds a budget tracker in Go.[^e-1175dea39c]" {
		t.Errorf("block text = %q", got)
	}
	if st, isErr := h.m.Status(); isErr || !strings.Contains(st, "edited ^f888f60e in topics/people/craig.md (revision 42)") {
		t.Errorf("status = %q (error %v)", st, isErr)
	}
	if !strings.Contains(h.view(), "Craig builds a budget tracker in Go.") {
		t.Errorf("the pane does not show the new text:\n%s", h.view())
	}
}

func TestEdit_NothingToSave(t *testing.T) {
	for _, c := range []struct {
		answer *string
		want   string
	}{{nil, "unchanged (the same text): nothing saved"}, {text(""), "unchanged (an empty text): nothing saved"}} {
		h, _ := editorHarness(t, c.answer)
		h.press("E")
		if st, _ := h.m.Status(); !strings.Contains(st, c.want) {
			t.Errorf("status = %q, want %q", st, c.want)
		}
		if n := h.f.count("EditBlock"); n != 0 {
			t.Errorf("EditBlock called %d times", n)
		}
	}
}

func TestEdit_EditorFailureKeepsTheText(t *testing.T) {
	h, ed := editorHarness(t) // no answer: the editor fails
	h.press("E")
	st, isErr := h.m.Status()
	if !isErr || !strings.Contains(st, "the editor failed: exit status 1") || !strings.Contains(st, "the text is kept in ") {
		t.Fatalf("status = %q (error %v)", st, isErr)
	}
	file := strings.Fields(st[strings.Index(st, "kept in ")+len("kept in "):])[0]
	defer os.Remove(file)
	if data, err := os.ReadFile(file); err != nil || string(data) != ed.shown[0] {
		t.Errorf("the kept file %s: %v\n%s", file, err, data)
	}
}

func TestEdit_FromCoreAndConflict(t *testing.T) {
	h := newHarness(t, 120, 40)
	answer := "The owner is Craig; he prefers terse answers."
	ed := &fakeEditor{t: t, answers: []*string{&answer}}
	h.m.exec = func(c *exec.Cmd, done tea.ExecCallback) tea.Cmd {
		// Someone else edits the block while the owner types.
		h.f.mu.Lock()
		h.f.core[0].Text = "Changed meanwhile."
		h.f.syncCoreTopic()
		h.f.mu.Unlock()
		return ed.exec(c, done)
	}
	h.press("3", "E")
	st, isErr := h.m.Status()
	if !isErr || !strings.Contains(st, "CONFLICT") || !strings.Contains(st, "your text is kept in ") {
		t.Fatalf("status = %q", st)
	}
	file := strings.Fields(st[strings.Index(st, "kept in ")+len("kept in "):])[0]
	defer os.Remove(file)
	if data, _ := os.ReadFile(file); !strings.Contains(string(data), answer) {
		t.Errorf("kept file:\n%s", data)
	}
}

func TestDelete_LinkedIsRefusedWithoutADialog(t *testing.T) {
	h, _ := editorHarness(t)
	h.press("D")
	if h.m.dialog != nil {
		t.Fatal("a dialog opened for a block that cannot be deleted")
	}
	st, isErr := h.m.Status()
	if !isErr || st != "cannot delete ^f888f60e: linked from topics/projects/release.md:5 (block ^1f2e3d4c); "+
		"change or remove the link first, or move the block instead (links follow a move)" {
		t.Errorf("status = %q", st)
	}
}

func TestDelete_ConfirmThenDelete(t *testing.T) {
	h, _ := editorHarness(t)
	h.press("down", "D")
	if h.m.dialog == nil || !strings.Contains(h.m.dialog.Prompt, "Delete block ^0b1c2d3e from topics/people/craig.md?\n“He wants CSV import") ||
		!strings.Contains(h.m.dialog.Prompt, "Its footnote [^e-2a2b3c4d5e] goes with it") {
		t.Fatalf("dialog = %+v", h.m.dialog)
	}
	h.press("n")
	if h.f.count("DeleteBlock") != 1 {
		t.Errorf("DeleteBlock calls = %d, want the preview only", h.f.count("DeleteBlock"))
	}
	h.press("D", "y")
	if got := h.blockText("topics/people/craig.md", "0b1c2d3e"); got != "" {
		t.Errorf("the block is still there: %q", got)
	}
	if st, _ := h.m.Status(); !strings.Contains(st, "deleted ^0b1c2d3e from topics/people/craig.md (revision 42) with 1 footnote") {
		t.Errorf("status = %q", st)
	}
	if v := h.m.topics.View(); strings.Contains(v, "0b1c2d3e") {
		t.Errorf("the pane still lists the block:\n%s", v)
	}
}

func TestMove_PickerConfirmAndFollow(t *testing.T) {
	h, _ := editorHarness(t)
	h.press("M")
	if h.m.State() != StateEditing || !h.m.picker.IsOpen() {
		t.Fatalf("state %v, picker open %v", h.m.State(), h.m.picker.IsOpen())
	}
	h.typeText("q") // keys go to the input, never to the panes or quit
	if h.quit {
		t.Fatal("q in the picker quit")
	}
	h.press("backspace")
	h.typeText("pro")
	if v := h.view(); !strings.Contains(v, "topics/projects/release.md") {
		t.Errorf("the picker does not offer release.md:\n%s", v)
	}
	h.press("tab") // completes to the only match
	h.typeText("#Craig")
	h.press("enter")
	d := h.m.dialog
	if d == nil || !strings.Contains(d.Prompt, "Move block ^f888f60e from topics/people/craig.md to topics/projects/release.md under the heading “Craig”?") ||
		!strings.Contains(d.Prompt, "1 link to it follows") {
		t.Fatalf("dialog = %+v", d)
	}
	h.press("y")
	if got := h.blockText("topics/projects/release.md", "f888f60e"); got == "" {
		t.Fatal("the block did not move")
	}
	if st, _ := h.m.Status(); !strings.Contains(st, "moved ^f888f60e from topics/people/craig.md to topics/projects/release.md (revision 42); 1 link followed") {
		t.Errorf("status = %q", st)
	}
	// The topics pane followed the block to its new file.
	if p := h.m.topics.Path(); p != "topics/projects/release.md" {
		t.Errorf("topics pane on %s", p)
	}
	if b, ok := h.m.topics.Block(); !ok || b.Ref != "f888f60e" {
		t.Errorf("selected block = %+v", b)
	}
}

func TestMove_NewFileAndCancel(t *testing.T) {
	h, _ := editorHarness(t)
	h.press("M", "esc")
	if h.m.picker.IsOpen() || h.f.count("MoveBlock") != 0 {
		t.Fatal("esc did not close the picker, or moved")
	}
	if st, _ := h.m.Status(); !strings.Contains(st, "move cancelled") {
		t.Errorf("status = %q", st)
	}
	h.press("M", "enter") // nothing typed, nothing chosen
	if st, isErr := h.m.Status(); !isErr || !strings.Contains(st, "type a topic path first") || !h.m.picker.IsOpen() {
		t.Errorf("status = %q, picker open %v", st, h.m.picker.IsOpen())
	}
	h.typeText("people/dana")
	if v := h.view(); !strings.Contains(v, "new file: topics/people/dana.md") {
		t.Errorf("no new-file hint:\n%s", v)
	}
	h.press("enter")
	if h.m.dialog == nil || !strings.Contains(h.m.dialog.Prompt, "to topics/people/dana.md (a new file)?") {
		t.Fatalf("dialog = %+v", h.m.dialog)
	}
	h.press("y")
	if got := h.blockText("topics/people/dana.md", "f888f60e"); got == "" {
		t.Error("the block is not in the new file")
	}
}

func TestCurateKeys_NeedABlock(t *testing.T) {
	h := newHarness(t, 120, 40)
	h.press("2", "D")
	if st, _ := h.m.Status(); !strings.Contains(st, "choose a block first") {
		t.Errorf("status = %q", st)
	}
	if h.f.count("DeleteBlock") != 0 || h.m.dialog != nil {
		t.Error("D on the tree acted")
	}
}

func TestCurate_LastBlockOfAFile(t *testing.T) {
	h, _ := editorHarness(t)
	f := h.f
	f.mu.Lock()
	f.topics["topics/people/craig.md"].Blocks = f.topics["topics/people/craig.md"].Blocks[1:] // ^0b1c2d3e alone
	f.mu.Unlock()
	h.press("r") // reload
	// Moving the file's last block follows it to its new file; the gone
	// file is not asked for again.
	h.press("M")
	h.typeText("projects/release")
	h.press("enter")
	if d := h.m.dialog; d == nil || !strings.Contains(d.Prompt, "topics/people/craig.md has no other block and is removed") {
		t.Fatalf("dialog = %+v", d)
	}
	h.press("y")
	st, isErr := h.m.Status()
	if isErr || !strings.Contains(st, "removed topics/people/craig.md, left with no block") {
		t.Errorf("status = %q (error %v)", st, isErr)
	}
	if b, ok := h.m.topics.Block(); h.m.topics.Path() != "topics/projects/release.md" || !ok || b.Ref != "0b1c2d3e" {
		t.Errorf("topics pane on %s, block %+v", h.m.topics.Path(), b)
	}
	// Deleting it there leaves release.md's other blocks; deleting the
	// last block of a file goes back to the tree without an error.
	h.press("D", "y")
	h.press("up", "D", "y")
	h.press("D", "y")
	if st, isErr := h.m.Status(); isErr || !strings.Contains(st, "the file had no other block and was removed") {
		t.Errorf("status = %q (error %v)", st, isErr)
	}
	if h.m.topics.Path() == "topics/projects/release.md" {
		t.Error("the topics pane still shows the removed file")
	}
}

// Issue 22: the picker took "topics/../evil.md" until enter, then closed
// and the engine's refusal lost what was typed. The path is checked as
// typed, and enter on a bad one keeps the picker and its input.
func TestMove_PickerRefusesABadPathAsTyped(t *testing.T) {
	h, _ := editorHarness(t)
	h.press("M")
	h.typeText("topics/../evil.md")
	if v := h.view(); !strings.Contains(v, "not a topic path") || strings.Contains(v, "new file:") {
		t.Errorf("the bad path is not flagged as typed:\n%s", v)
	}
	h.press("enter")
	if !h.m.picker.IsOpen() || h.m.dialog != nil || h.f.count("MoveBlock") != 0 {
		t.Fatalf("picker open %v, dialog %+v, moves %d", h.m.picker.IsOpen(), h.m.dialog, h.f.count("MoveBlock"))
	}
	if st, isErr := h.m.Status(); !isErr || !strings.Contains(st, "not a topic path") {
		t.Errorf("status = %q", st)
	}
	if got := h.m.picker.Value(); got != "topics/../evil.md" {
		t.Errorf("input = %q, want what was typed", got)
	}
	// Fixing the input in place moves the block.
	for range "../evil.md" {
		h.press("backspace")
	}
	h.typeText("people/dana")
	h.press("enter")
	if h.m.dialog == nil || !strings.Contains(h.m.dialog.Prompt, "to topics/people/dana.md") {
		t.Fatalf("dialog = %+v", h.m.dialog)
	}
}
