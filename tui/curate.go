package tui

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/curate"
	"scriptorium/errcode"
	"scriptorium/views"
)

// The owner's corrections of a block (E, D, M). Edit suspends the TUI for
// $VISUAL/$EDITOR (tea.ExecProcess) on a temporary file that holds the
// block's text under a comment header; when the editor closes, the text
// is saved as a mutation, or, when it is refused, written back with the
// reasons above it and the editor opens again. Delete and move are
// previewed with a dry run (a linked delete is refused right there, naming
// the links), then confirmed, then installed.

type (
	// editorReady: the file to edit is written; run the editor on it.
	editorReady struct {
		block curate.Block
		file  string
	}
	// editorClosed: the editor exited (err when it failed to run).
	editorClosed struct {
		ready editorReady
		err   error
	}
	// editorReopen: the text was refused and the file now notes why.
	editorReopen struct{ ready editorReady }
)

// curateRequest handles the correction requests; it reports false for
// other messages.
func (m *Model) curateRequest(msg tea.Msg) (tea.Cmd, bool) {
	b := m.b
	switch r := msg.(type) {
	case views.EditBlock:
		ref := r.Path + "#^" + r.ID
		return m.run(kindEditOpen, ref, "opening ^"+r.ID+" in the editor", func(ctx context.Context) (tea.Msg, error) {
			blk, err := b.FindBlock(ctx, ref)
			if err != nil {
				return nil, err
			}
			file, err := newEditorFile(blk)
			return editorReady{block: blk, file: file}, err
		}), true
	case editorClosed:
		return m.editorClosed(r), true
	case views.PreviewDelete:
		return m.run(kindDeletePreview, r.Path+"#^"+r.ID, "preparing the delete of ^"+r.ID, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.DeleteBlock(ctx, r.Path+"#^"+r.ID, true)
			if linkedRefusal(err) {
				return views.DeletePreviewed{Request: r, Err: err}, nil // said in the owner's words by curateResult
			}
			return views.DeletePreviewed{Request: r, Result: res, Err: err}, err
		}), true
	case views.DeleteBlock:
		return m.mutate(kindBlockDelete, "deleting ^"+r.ID, r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.DeleteBlock(ctx, r.Path+"#^"+r.ID, false)
			return views.BlockDeleted{Request: r, Result: res, Err: err}, err
		}), true
	case views.PickTopic:
		return m.picker.Open(r), true
	case views.PreviewMove:
		return m.run(kindMovePreview, r, "preparing the move of ^"+r.ID, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.MoveBlock(ctx, curate.MoveRequest{ID: r.From + "#^" + r.ID, To: r.To, Under: r.Under, DryRun: true})
			return views.MovePreviewed{Request: r, Result: res, Err: err}, err
		}), true
	case views.MoveBlock:
		return m.mutate(kindBlockMove, "moving ^"+r.ID+" to "+r.To, r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.MoveBlock(ctx, curate.MoveRequest{ID: r.From + "#^" + r.ID, To: r.To, Under: r.Under})
			return views.BlockMoved{Request: r, Result: res, Err: err}, err
		}), true
	}
	return nil, false
}

// curateResult takes the results that lead somewhere else: the editor to
// run (again), a preview to confirm. It reports false for other results.
func (m *Model) curateResult(msg tea.Msg) (tea.Cmd, bool) {
	switch r := msg.(type) {
	case editorReady:
		return m.runEditor(r), true
	case editorReopen:
		return m.runEditor(r.ready), true
	case views.DeletePreviewed:
		if r.Err != nil {
			m.setError(linkedText(r.Request.ID, r.Err))
			return nil, true
		}
		return views.Send(views.Confirm{Prompt: deletePrompt(r.Result),
			Action: views.DeleteBlock{ID: r.Request.ID, Path: r.Request.Path}}), true
	case views.MovePreviewed:
		q := r.Request
		return views.Send(views.Confirm{Prompt: movePrompt(r.Result),
			Action: views.MoveBlock{ID: q.ID, From: q.From, To: r.Result.To, Under: q.Under}}), true
	}
	return nil, false
}

// runEditor suspends the TUI and runs the editor on the file.
func (m *Model) runEditor(r editorReady) tea.Cmd {
	return m.exec(curate.EditorCommand(r.file, m.getenv), func(err error) tea.Msg { return editorClosed{ready: r, err: err} })
}

// newEditorFile writes the block's text under its header to a private
// temporary file (0600) and returns its name.
func newEditorFile(b curate.Block) (string, error) {
	f, err := os.CreateTemp("", "scriptorium-edit-"+b.ID+"-*.md")
	if err != nil {
		return "", fmt.Errorf("create the file to edit: %w", err)
	}
	_, err = f.Write(curate.EditorFile(b, b.Text, nil))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the file to edit: %w", err)
	}
	return f.Name(), nil
}

// editorClosed saves what the owner wrote, as a mutation. The file goes
// once the text is saved or there is nothing to save; on any failure it
// stays and the status line names it, so the text is never lost.
func (m *Model) editorClosed(r editorClosed) tea.Cmd {
	rd := r.ready
	if r.err != nil {
		m.setError(fmt.Sprintf("the editor failed: %v (set $VISUAL or $EDITOR); the text is kept in %s", r.err, rd.file))
		return nil
	}
	if m.tasks.mutation != 0 {
		m.setError(fmt.Sprintf("busy: %s is still running; your text is kept in %s (E opens ^%s again)",
			m.tasks.running[m.tasks.mutation], rd.file, rd.block.ID))
		return nil
	}
	b := m.b
	req := views.EditBlock{ID: rd.block.ID, Path: rd.block.Path}
	return m.mutate(kindBlockEdit, "saving ^"+rd.block.ID, req, func(ctx context.Context) (tea.Msg, error) {
		data, err := os.ReadFile(rd.file)
		if err != nil {
			return nil, fmt.Errorf("read the edited text: %w", err)
		}
		text := curate.ParseEditorFile(data)
		if text == "" || text == curate.CleanText(rd.block.Text) {
			os.Remove(rd.file)
			why := "the same text"
			if text == "" {
				why = "an empty text"
			}
			return views.BlockEdited{Request: req, Why: why,
				Result: curate.EditResult{ID: rd.block.ID, Path: rd.block.Path, Changed: []string{}}}, nil
		}
		res, err := b.EditBlock(ctx, curate.EditRequest{ID: rd.block.Path + "#^" + rd.block.ID, Text: text, Expect: rd.block.Raw})
		if err != nil && errcode.As(err).Code == errcode.Rejected {
			if werr := os.WriteFile(rd.file, curate.EditorFile(rd.block, text, curate.Notes(err)), 0o600); werr != nil {
				return nil, keptIn(err, rd.file)
			}
			return editorReopen{ready: rd}, nil
		}
		if err != nil {
			err = keptIn(err, rd.file)
			return views.BlockEdited{Request: req, Err: err}, err
		}
		os.Remove(rd.file)
		return views.BlockEdited{Request: req, Result: res}, nil
	})
}

// linkedRefusal reports whether a delete was refused for links to the
// block.
func linkedRefusal(err error) bool {
	e := errcode.As(err)
	return e != nil && e.Code == errcode.Rejected && len(e.Violations) > 0 && e.Violations[0].Code == "linked_block"
}

// linkedText is a refused delete for the status line, the links first:
// they are what the owner must change.
func linkedText(id string, err error) string {
	vs := errcode.As(err).Violations
	var where []string
	for i, v := range vs {
		if i == 2 {
			where = append(where, fmt.Sprintf("and %d more", len(vs)-2))
			break
		}
		who, _, _ := strings.Cut(v.Message, " links to ")
		where = append(where, fmt.Sprintf("%s:%d (%s)", views.Visible(v.Path), v.Line, who))
	}
	return fmt.Sprintf("cannot delete ^%s: linked from %s; change or remove the link first, or move the block instead (links follow a move)",
		id, strings.Join(where, ", "))
}

// keptIn adds to an error where the owner's text waits.
func keptIn(err error, file string) error {
	e := *errcode.As(err)
	e.Message += "; your text is kept in " + file
	return &e
}

// first is the start of a block's text for a dialog, on one line.
func first(text string) string { return views.OneLine(curate.First(text, 90)) }

// deletePrompt names the block a delete removes and what goes with it.
func deletePrompt(r curate.DeleteResult) string {
	s := fmt.Sprintf("Delete block ^%s from %s?\n“%s”\n", views.Visible(r.ID), views.Visible(r.Path), first(r.Text))
	switch n := len(r.Footnotes); {
	case n == 1:
		s += fmt.Sprintf("Its footnote [^%s] goes with it (no other block uses it). ", r.Footnotes[0])
	case n > 1:
		s += fmt.Sprintf("Its footnotes [^%s] go with it (no other block uses them). ", strings.Join(r.Footnotes, "] [^"))
	}
	if r.FileDeleted {
		s += fmt.Sprintf("%s has no other block and is removed too. ", views.Visible(r.Path))
	}
	return s + "Revert (Audit pane, R) brings it back. y to confirm, any other key cancels"
}

// movePrompt says what a move changes.
func movePrompt(r curate.MoveResult) string {
	to := views.Visible(r.To)
	if r.Created {
		to += " (a new file)"
	}
	if r.Under != "" {
		to += fmt.Sprintf(" under the heading “%s”", views.OneLine(r.Under))
	}
	s := fmt.Sprintf("Move block ^%s from %s to %s?\nIt keeps its id", views.Visible(r.ID), views.Visible(r.From), to)
	switch n := len(r.Footnotes); {
	case n == 1:
		s += " and its footnote goes along"
	case n > 1:
		s += fmt.Sprintf(" and its %d footnotes go along", n)
	}
	switch n := len(r.Links); {
	case n == 1:
		s += "; 1 link to it follows"
	case n > 1:
		s += fmt.Sprintf("; %d links to it follow", n)
	}
	if r.FileDeleted {
		s += "; " + r.From + " has no other block and is removed"
	}
	return s + ". y to confirm, any other key cancels"
}

// editedText, deletedText and movedText say what a correction did.
func editedText(r views.BlockEdited) string {
	res := r.Result
	if len(res.Changed) == 0 {
		why := r.Why
		if why == "" {
			why = "the same text"
		}
		return fmt.Sprintf("^%s unchanged (%s): nothing saved", views.Visible(res.ID), why)
	}
	s := fmt.Sprintf("edited ^%s in %s (revision %d)", views.Visible(res.ID), views.Visible(res.Path), res.Revision)
	if len(res.Reattached) > 0 {
		s += fmt.Sprintf("; re-attached [^%s] at the end: a citation is never dropped", strings.Join(res.Reattached, "] [^"))
	}
	return s
}

func deletedText(r views.BlockDeleted) string {
	res := r.Result
	s := fmt.Sprintf("deleted ^%s from %s (revision %d)", views.Visible(res.ID), views.Visible(res.Path), res.Revision)
	if n := len(res.Footnotes); n > 0 {
		s += fmt.Sprintf(" with %s", plural(n, "footnote"))
	}
	if res.FileDeleted {
		s += "; the file had no other block and was removed"
	}
	return s + "; revert brings it back"
}

func movedText(r views.BlockMoved) string {
	res := r.Result
	s := fmt.Sprintf("moved ^%s from %s to %s (revision %d)", views.Visible(res.ID), views.Visible(res.From), views.Visible(res.To), res.Revision)
	if res.Created {
		s += "; created " + res.To
	}
	if n := len(res.Links); n > 0 {
		s += fmt.Sprintf("; %s followed", plural(n, "link"))
	}
	if res.FileDeleted {
		s += "; removed " + res.From + ", left with no block"
	}
	return s
}

// execEditor is tea.ExecProcess: the TUI gives the terminal to the editor
// and takes it back when it exits.
func execEditor(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd { return tea.ExecProcess(c, fn) }
