package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// forgetFlags are the flags of forget: one selector, then --dry-run/--yes.
var forgetFlags = []flagSpec{
	{"source", true, "forget these source-ids (ID…)"},
	{"speaker", true, "forget every record of this trusted speaker id"},
	{"thread", true, "forget every record of PROVIDER/THREAD and its sessions.db session"},
	{"dry-run", false, "list everything that would be removed, as diffs; change nothing"},
	{"yes", false, "confirm without a terminal"},
}

// runForget removes records for good (issue 16 §1). Like revert it is the
// owner's deliberate act: on a terminal the preview is shown and
// confirmed; elsewhere --yes is required; --dry-run only shows it.
func runForget(inv *invocation) error {
	sel, err := forgetSelector(inv)
	if err != nil {
		return err
	}
	dry := inv.bool("dry-run")
	if !dry && !inv.bool("yes") && !inv.isTerminal() {
		return &errcode.Error{Code: errcode.Forbidden,
			Message: "forget is interactive: run it on a terminal, pass --yes, or look first with --dry-run"}
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		if !dry && !inv.bool("yes") {
			preview, err := forget.Run(ctx, e, sel, true)
			if err != nil {
				return err
			}
			printForgetChanges(inv.stderr, preview)
			if !inv.confirm(forgetQuestion(sel, preview) + " [y/N] ") {
				return errcode.Errorf(errcode.InvalidArgument, "forget cancelled; nothing changed")
			}
		}
		res, err := forget.Run(ctx, e, sel, dry)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if dry {
				fmt.Fprintf(w, "forgetting %s would remove %d record(s) and blank %d sessions.db turn(s):\n",
					sel, len(res.Sources), res.Turns)
				printForgetChanges(w, res)
				return
			}
			fmt.Fprintf(w, "forgot %s at revision %d: %d record(s) now tombstones, %d block(s) removed, %d turn(s) blanked; %d place(s) cleaned\n",
				sel, res.Revision, len(res.Sources), len(res.Blocks), res.Turns, len(res.Changes))
		})
	})
}

// forgetSelector reads the one selector: --source ID… (the flag's value and
// any further positional arguments), --speaker SID or --thread P/T.
func forgetSelector(inv *invocation) (result.ForgetSelector, error) {
	var sel result.ForgetSelector
	n := 0
	for _, f := range []string{"source", "speaker", "thread"} {
		if inv.set[f] {
			n++
		}
	}
	if n != 1 {
		return sel, usagef("usage: scriptorium forget --source ID… | --speaker SID | --thread PROVIDER/THREAD [--dry-run] [--yes]")
	}
	switch {
	case inv.set["source"]:
		sel.Sources = append([]string{inv.flag("source")}, inv.positional...)
	case len(inv.positional) > 0:
		return sel, usagef("forget takes no arguments besides --source IDs (got %q)", inv.positional[0])
	case inv.set["speaker"]:
		sel.Speaker = inv.flag("speaker")
	default:
		sel.Thread = inv.flag("thread")
	}
	return sel, nil
}

// forgetQuestion is the confirmation, saying what goes and that it is final.
func forgetQuestion(sel result.ForgetSelector, r result.ForgetResult) string {
	return fmt.Sprintf("Forget %d record(s) of %s? Their text leaves the archive (tombstones keep source-id, anchor and time), "+
		"%d block(s) and %d citation(s) leave the topics, %d sessions.db turn(s) are blanked, %d vector(s) leave embeddings.db "+
		"and %d place(s) change as shown. This cannot be reverted.", len(r.Sources), sel, len(r.Blocks), r.Citations, r.Turns,
		r.Vectors, len(r.Changes))
}

func printForgetChanges(w io.Writer, r result.ForgetResult) {
	for _, c := range r.Changes {
		fmt.Fprintf(w, "\n[%s] %s\n%s", c.Kind, c.Path, c.Diff)
		if !strings.HasSuffix(c.Diff, "\n") {
			fmt.Fprintln(w)
		}
	}
}
