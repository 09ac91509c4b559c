package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/curate"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// The owner correcting memory by hand (issue 22 §5): edit, delete and
// move one block. Each is one install of its own kind, which `audit`
// shows and `revert` undoes.

func editVerb() *verb {
	return &verb{name: "edit", args: "^ID [-]",
		help:  "change a block's text in $VISUAL/$EDITOR (on a terminal; a refused text reopens with the reasons), else from --text or stdin; its id and citations stay (owner)",
		flags: []flagSpec{{"text", true, "the new text, without the id (no editor)"}}, run: runEdit}
}

func deleteVerb() *verb {
	return &verb{name: "delete", args: "^ID", help: "remove a block and the footnotes only it used; refused while other blocks link to it (owner; a terminal or --yes)",
		flags: []flagSpec{{"dry-run", false, "say what would go, change nothing"}, {"yes", false, "confirm without a terminal"}}, run: runDelete}
}

func moveVerb() *verb {
	return &verb{name: "move", args: "^ID PATH", help: "move a block to another topic file (created when missing); its id, citations and the links to it follow (owner; a terminal or --yes)",
		flags: []flagSpec{{"under", true, "under this heading of PATH (added when missing)"},
			{"dry-run", false, "say what would change, change nothing"}, {"yes", false, "confirm without a terminal"}}, run: runMove}
}

// runEdit edits a block: in the editor on a terminal, else from --text or
// stdin ("-").
func runEdit(inv *invocation) error {
	if err := inv.wantArgs(1, 2); err != nil {
		return err
	}
	stdin := len(inv.positional) == 2
	switch {
	case stdin && inv.positional[1] != "-":
		return usagef("usage: scriptorium edit ^ID [-] [--text TEXT]")
	case stdin && inv.set["text"]:
		return usagef("edit reads the new text from --text or from stdin (-), not both")
	}
	useEditor := !inv.set["text"] && !stdin && inv.isTerminal()
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		ref := inv.positional[0]
		var res curate.EditResult
		var why string
		var err error
		switch {
		case useEditor:
			res, why, err = editInEditor(ctx, inv, e, ref, inv.runEditor)
		case inv.set["text"]:
			res, err = curate.Edit(ctx, e, curate.EditRequest{ID: ref, Text: inv.flag("text")})
		default:
			var data []byte
			if data, err = io.ReadAll(inv.stdin); err != nil {
				return errcode.Wrap(errcode.InvalidArgument, err, "read the new text from stdin")
			}
			res, err = curate.Edit(ctx, e, curate.EditRequest{ID: ref, Text: string(data)})
		}
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if len(res.Changed) == 0 {
				if why == "" {
					why = "the same text"
				}
				fmt.Fprintf(w, "^%s unchanged (%s): nothing saved\n", res.ID, why)
				return
			}
			fmt.Fprintf(w, "edited ^%s in %s (revision %d)\n", res.ID, res.Path, res.Revision)
			if len(res.Reattached) > 0 {
				fmt.Fprintf(w, "re-attached [^%s] at the end of the text: a citation is never dropped\n", strings.Join(res.Reattached, "] [^"))
			}
		})
	})
}

// editInEditor is the git-commit loop: the block's text in a temporary
// file under a comment header, the editor, and again with the reasons
// noted above the text while the text is refused. Nothing is saved until
// the text is valid; an unchanged or empty text saves nothing (why says
// which). When the edit fails otherwise the file is kept and named, so
// the owner's text is never lost.
func editInEditor(ctx context.Context, inv *invocation, e *engine.Engine, ref string, editor func(file string) error) (curate.EditResult, string, error) {
	var res curate.EditResult
	b, err := curate.Find(ctx, e, ref)
	if err != nil {
		return res, "", err
	}
	f, err := os.CreateTemp("", "scriptorium-edit-"+b.ID+"-*.md")
	if err != nil {
		return res, "", errcode.Wrap(errcode.IO, err, "create the file to edit")
	}
	file := f.Name()
	_, werr := f.Write(curate.EditorFile(b, b.Text, nil))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	keep := false
	defer func() {
		if !keep {
			os.Remove(file)
		}
	}()
	if werr != nil {
		return res, "", errcode.Wrap(errcode.IO, werr, "write %s", file)
	}
	for {
		if err := editor(file); err != nil {
			keep = true
			return res, "", errcode.Wrap(errcode.IO, err, "the editor failed (set $VISUAL or $EDITOR); the text is kept in %s", file)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			keep = true
			return res, "", errcode.Wrap(errcode.IO, err, "read %s", file)
		}
		text := curate.ParseEditorFile(data)
		if text == "" || text == curate.CleanText(b.Text) {
			rev, err := e.Revision()
			why := "the same text"
			if text == "" {
				why = "an empty text"
			}
			return curate.EditResult{Revision: rev, Changed: []string{}, ID: b.ID, Path: b.Path, Before: b.Text, After: b.Text,
				Reattached: []string{}}, why, err
		}
		res, err = curate.Edit(ctx, e, curate.EditRequest{ID: b.Path + "#^" + b.ID, Text: text, Expect: b.Raw})
		if err != nil && errcode.As(err).Code == errcode.Rejected {
			fmt.Fprintf(inv.stderr, "scriptorium: not saved: %s\nscriptorium: the editor opens again with the reasons above the text\n",
				strings.Join(strings.Fields(err.Error()), " "))
			if werr := os.WriteFile(file, curate.EditorFile(b, text, curate.Notes(err)), 0o600); werr != nil {
				keep = true
				return res, "", errcode.Wrap(errcode.IO, werr, "write %s", file)
			}
			continue
		}
		if err != nil {
			keep = true
			return res, "", keptIn(err, file)
		}
		return res, "", nil
	}
}

// keptIn adds to an error where the owner's text waits.
func keptIn(err error, file string) error {
	ee := *errcode.As(err)
	ee.Message += "; your text is kept in " + file
	return &ee
}

// runEditor runs $VISUAL or $EDITOR on file with the terminal; the
// editor's output goes to stderr when stdout is not a terminal (--json).
func (inv *invocation) runEditor(file string) error {
	cmd := curate.EditorCommand(file, os.Getenv)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if !term.IsTerminal(int(os.Stdout.Fd())) {
		cmd.Stdout = os.Stderr
	}
	if err := cmd.Run(); err != nil {
		var exit interface{ ExitCode() int }
		if errors.As(err, &exit) {
			return fmt.Errorf("%s exited with status %d", cmd.Args[3], exit.ExitCode())
		}
		return fmt.Errorf("run %s: %w", cmd.Args[3], err)
	}
	return nil
}

// interactive refuses a deliberate act without a terminal or --yes.
func (inv *invocation) interactive(verb string) error {
	if inv.bool("yes") || inv.bool("dry-run") || inv.isTerminal() {
		return nil
	}
	return &errcode.Error{Code: errcode.Forbidden,
		Message: verb + " is interactive: run it on a terminal, pass --yes, or look first with --dry-run"}
}

// runDelete removes a block after a confirmation that names it.
func runDelete(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	if err := inv.interactive("delete"); err != nil {
		return err
	}
	ref, dry := inv.positional[0], inv.bool("dry-run")
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		if !dry && !inv.bool("yes") {
			// The preview refuses a linked block before anything is asked.
			preview, err := curate.Delete(ctx, e, ref, true)
			if err != nil {
				return err
			}
			fmt.Fprintf(inv.stderr, "^%s in %s: %s\n", preview.ID, preview.Path, curate.First(preview.Text, 160))
			if !inv.confirm(deleteSentence(preview, "Delete") + "? `revert` brings it back. [y/N] ") {
				return errcode.Errorf(errcode.InvalidArgument, "delete cancelled; nothing changed")
			}
		}
		res, err := curate.Delete(ctx, e, ref, dry)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if dry {
				fmt.Fprintln(w, deleteSentence(res, "would delete"))
				return
			}
			fmt.Fprintf(w, "%s (revision %d)\n", deleteSentence(res, "deleted"), res.Revision)
		})
	})
}

// deleteSentence says what a delete removes, starting with verb.
func deleteSentence(r curate.DeleteResult, verb string) string {
	s := fmt.Sprintf("%s block ^%s from %s", verb, r.ID, r.Path)
	if len(r.Footnotes) > 0 {
		s += fmt.Sprintf(", with its footnote(s) [^%s]", strings.Join(r.Footnotes, "] [^"))
	}
	if r.FileDeleted {
		s += ", and the file, which has no other block"
	}
	return s
}

// runMove moves a block to another topic file after a confirmation.
func runMove(inv *invocation) error {
	if err := inv.wantArgs(2, 2); err != nil {
		return err
	}
	if err := inv.interactive("move"); err != nil {
		return err
	}
	dry := inv.bool("dry-run")
	req := curate.MoveRequest{ID: inv.positional[0], To: inv.positional[1], Under: inv.flag("under")}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		if !dry && !inv.bool("yes") {
			preview := req
			preview.DryRun = true
			p, err := curate.Move(ctx, e, preview)
			if err != nil {
				return err
			}
			b, err := curate.Find(ctx, e, req.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(inv.stderr, "^%s in %s: %s\n", b.ID, b.Path, curate.First(b.Text, 160))
			if !inv.confirm(moveSentence(p, "Move", false) + "? `revert` moves it back. [y/N] ") {
				return errcode.Errorf(errcode.InvalidArgument, "move cancelled; nothing changed")
			}
		}
		req.DryRun = dry
		res, err := curate.Move(ctx, e, req)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if dry {
				fmt.Fprintf(w, "%s (%d file(s))\n", moveSentence(res, "would move", false), len(res.Changed))
				return
			}
			fmt.Fprintf(w, "%s (revision %d)\n", moveSentence(res, "moved", true), res.Revision)
			for _, l := range res.Links {
				fmt.Fprintf(w, "  link followed: %s\n", l)
			}
		})
	})
}

// moveSentence says what a move does (past: did), starting with verb:
// "Move ^id from A to B (a new file) under "Work"; 2 link(s) to it follow".
func moveSentence(r curate.MoveResult, verb string, past bool) string {
	s := fmt.Sprintf("%s ^%s from %s to %s", verb, r.ID, r.From, r.To)
	if r.Created {
		s += " (a new file)"
	}
	if r.Under != "" {
		s += " under \"" + r.Under + "\""
	}
	removing, follow := ", removing ", " follow"
	if past {
		removing, follow = ", removed ", " followed"
	}
	if r.FileDeleted {
		s += removing + r.From + ", which has no other block"
	}
	if n := len(r.Links); n > 0 {
		s += fmt.Sprintf("; %d link(s) to it%s", n, follow)
	}
	return s
}

func ownerVerb() *verb {
	return &verb{name: "owner", help: "what memory calls you ([owner] name in config.toml, else the name your own chat turns carry most often) and your file; --migrate moves topics/people/owner.md into it (owner; a terminal or --yes)",
		flags: []flagSpec{{"set", true, "store NAME as [owner] name in config.toml (the rest of the file kept as it is), then report"},
			{"migrate", false, "move every block of topics/people/owner.md into your name's file, \"the owner\" reworded to your name (one transaction: `revert` undoes it)"},
			{"dry-run", false, "with --migrate: say what would change, change nothing"}, {"yes", false, "confirm without a terminal"}}, run: runOwner}
}

// ownerReport is what `owner` says: the writer's name for the owner and
// how many blocks wait in the file of an unnamed owner.
type ownerReport struct {
	writer.OwnerNameResult
	// Unnamed is how many blocks topics/people/owner.md holds (facts the
	// writer filed before it had a name): --migrate moves them.
	Unnamed int `json:"unnamed_blocks"`
}

// runOwner shows the owner's name, or with --migrate moves the blocks of
// people/owner.md into the named owner's file after a confirmation.
func runOwner(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	migrate := inv.bool("migrate")
	if !migrate && (inv.set["dry-run"] || inv.set["yes"]) {
		return usagef("--dry-run and --yes go with --migrate")
	}
	if migrate {
		if err := inv.interactive("owner --migrate"); err != nil {
			return err
		}
	}
	if inv.set["set"] {
		dir, err := inv.stateDir()
		if err != nil {
			return err
		}
		if err := config.SetOwnerName(workspace.ConfigPath(dir), inv.flag("set")); err != nil {
			return err
		}
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		name, err := writer.OwnerName(ctx, e)
		if err != nil {
			return err
		}
		if !migrate {
			rep := ownerReport{OwnerNameResult: name}
			v, err := e.View(ctx)
			if err != nil {
				return err
			}
			if _, f, ok := v.Topic(writer.UnnamedOwnerFile); ok && name.File != writer.UnnamedOwnerFile {
				rep.Unnamed = len(f.Blocks())
			}
			return inv.emit(rep, func(w io.Writer) { printOwner(w, rep) })
		}
		if name.Name == "" {
			return errcode.Errorf(errcode.NotConfigured, "memory has no name for you: set [owner] name in config.toml, or import a chat with --owner naming you")
		}
		req := curate.MoveAllRequest{From: writer.UnnamedOwnerFile, To: name.File, Title: name.Name,
			Rewrite: writer.OwnerWording(name.Name), DryRun: true}
		dry := inv.bool("dry-run")
		if !dry && !inv.bool("yes") {
			p, err := curate.MoveAll(ctx, e, req)
			if err != nil {
				return err
			}
			if !inv.confirm(fmt.Sprintf("Move %d block(s) from %s to %s, \"the owner\" reworded as %q in %d? `revert` undoes it. [y/N] ",
				len(p.Moved), p.From, p.To, name.Name, len(p.Rewritten))) {
				return errcode.Errorf(errcode.InvalidArgument, "owner --migrate cancelled; nothing changed")
			}
		}
		req.DryRun = dry
		res, err := curate.MoveAll(ctx, e, req)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			did := "moved"
			if dry {
				did = "would move"
			}
			fmt.Fprintf(w, "%s %d block(s) from %s to %s", did, len(res.Moved), res.From, res.To)
			if res.Created {
				fmt.Fprint(w, " (a new file)")
			}
			fmt.Fprintf(w, "; %d reworded", len(res.Rewritten))
			if !dry {
				fmt.Fprintf(w, " (revision %d)", res.Revision)
			}
			fmt.Fprintln(w)
			for _, l := range res.Links {
				fmt.Fprintf(w, "  link followed: %s\n", l)
			}
		})
	})
}

// printOwner says what memory calls the owner, from where, and what waits
// in the unnamed owner's file.
func printOwner(w io.Writer, rep ownerReport) {
	switch rep.Source {
	case writer.OwnerNameConfig:
		fmt.Fprintf(w, "memory calls you %q ([owner] name in config.toml); your facts go to %s\n", rep.Name, rep.File)
	case writer.OwnerNameLearned:
		fmt.Fprintf(w, "memory calls you %q (the name your own turns carry most often; set [owner] name in config.toml to choose); your facts go to %s\n", rep.Name, rep.File)
	default:
		fmt.Fprintf(w, "memory calls you \"the owner\" (no [owner] name in config.toml, and no chat names you); your facts go to %s\n", rep.File)
	}
	for _, n := range rep.Learned {
		fmt.Fprintf(w, "  %s: %d of your turns\n", n.Name, n.Turns)
	}
	if rep.Unnamed > 0 {
		fmt.Fprintf(w, "%s holds %d block(s) written before memory had your name: `scriptorium owner --migrate` moves them into %s\n",
			writer.UnnamedOwnerFile, rep.Unnamed, rep.File)
	}
}
