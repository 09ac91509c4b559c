package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/revert"
	"scriptorium/errcode"
)

// runRevert undoes one installed transaction (issue: passes the owner can
// undo). Like promote it is the owner's deliberate act: on a terminal the
// diff is shown and confirmed; elsewhere --yes is required. --dry-run only
// shows the diff.
func runRevert(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	rev, err := strconv.ParseInt(strings.TrimPrefix(inv.positional[0], "r"), 10, 64)
	if err != nil || rev < 1 {
		return usagef("revert needs a revision number, not %q (see `history`)", inv.positional[0])
	}
	dry := inv.bool("dry-run")
	if !dry && !inv.bool("yes") && !inv.isTerminal() {
		return &errcode.Error{Code: errcode.Forbidden,
			Message: "revert is interactive: run it on a terminal, pass --yes, or look first with --dry-run"}
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		if !dry && !inv.bool("yes") {
			preview, err := revert.Revert(ctx, e, rev, true)
			if err != nil {
				return err
			}
			printDiffs(inv.stderr, preview.Changed)
			if !inv.confirm(fmt.Sprintf("Revert revision %d? %d file(s) change as shown. [y/N] ", rev, len(preview.Changed))) {
				return errcode.Errorf(errcode.InvalidArgument, "revert cancelled; nothing changed")
			}
		}
		res, err := revert.Revert(ctx, e, rev, dry)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			switch {
			case len(res.Changed) == 0:
				fmt.Fprintf(w, "revision %d is already undone: nothing to change\n", rev)
			case dry:
				fmt.Fprintf(w, "reverting revision %d would change %d file(s):\n", rev, len(res.Changed))
				printDiffs(w, res.Changed)
			default:
				fmt.Fprintf(w, "reverted revision %d as revision %d (%d file(s))\n", rev, res.Revision, len(res.Changed))
			}
		})
	})
}

func runProposals(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		ps, err := proposals.List(e)
		if err != nil {
			return err
		}
		out := make([]proposals.Summary, len(ps))
		for i, p := range ps {
			out[i] = p.Summary()
		}
		return inv.emit(map[string]any{"proposals": out}, func(w io.Writer) {
			if len(ps) == 0 {
				fmt.Fprintln(w, "no proposals waiting")
			}
			for _, p := range ps {
				kind := p.Kind
				if p.ProposedBy != "" {
					kind += " (by " + p.ProposedBy + ")"
				}
				fmt.Fprintf(w, "%s  %s  %s  base revision %d  %s\n", p.ID, kind, p.Time, p.BaseRevision, strings.Join(proposalPaths(p), ", "))
			}
		})
	})
}

// onlyPaths reads `--only P1 [P2 …]`: the flag's value and any further
// positional arguments after the proposal id.
func onlyPaths(inv *invocation) ([]string, error) {
	if !inv.set["only"] {
		if len(inv.positional) > 1 {
			return nil, usagef("one proposal id at a time; choose files with --only PATH…")
		}
		return nil, nil
	}
	only := []string{}
	for _, p := range append([]string{inv.flag("only")}, inv.positional[1:]...) {
		for _, part := range strings.Split(p, ",") {
			if part = strings.TrimSpace(part); part != "" {
				only = append(only, part)
			}
		}
	}
	if len(only) == 0 {
		return nil, usagef("--only needs at least one path")
	}
	return only, nil
}

func runAccept(inv *invocation) error {
	if err := inv.wantArgs(1, -1); err != nil {
		return err
	}
	only, err := onlyPaths(inv)
	if err != nil {
		return err
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		res, err := proposals.Accept(ctx, e, inv.positional[0], only)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			rebased := ""
			if res.Rebased {
				rebased = " (rebased onto the current files)"
			}
			fmt.Fprintf(w, "accepted %s as revision %d%s: %d file(s)\n", res.ID, res.Revision, rebased, len(res.Changed))
			if len(res.Remaining) > 0 {
				fmt.Fprintf(w, "still waiting: %s\n", strings.Join(res.Remaining, ", "))
			}
		})
	})
}

func runDecline(inv *invocation) error {
	if err := inv.wantArgs(1, -1); err != nil {
		return err
	}
	only, err := onlyPaths(inv)
	if err != nil {
		return err
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		remaining, err := proposals.Decline(ctx, e, inv.positional[0], only)
		if err != nil {
			return err
		}
		return inv.emit(map[string]any{"id": inv.positional[0], "declined": true, "remaining": remaining}, func(w io.Writer) {
			fmt.Fprintf(w, "declined %s\n", inv.positional[0])
			if len(remaining) > 0 {
				fmt.Fprintf(w, "still waiting: %s\n", strings.Join(remaining, ", "))
			}
		})
	})
}
