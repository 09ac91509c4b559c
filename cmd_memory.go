package main

// The verbs on memory itself: verify, get, update, core.

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/hosts/errdoc"
	"scriptorium/trust"
)

func runVerify(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		rep, err := e.Verify(ctx)
		if err != nil {
			return err
		}
		if err := inv.emit(rep, func(w io.Writer) {
			for _, v := range rep.Violations {
				fmt.Fprintln(w, v.String())
			}
			if rep.OK {
				fmt.Fprintln(w, "ok: the workspace is valid")
			} else {
				fmt.Fprintf(w, "%d violation(s)\n", len(rep.Violations))
			}
		}); err != nil {
			return err
		}
		if !rep.OK {
			return silentFailure{}
		}
		return nil
	})
}

// silentFailure exits 1 after the verb already printed its result (verify
// found violations: the JSON document is the report, not an error).
type silentFailure struct{}

func (silentFailure) Error() string   { return "" }
func (silentFailure) ExitStatus() int { return errdoc.ExitFailure }
func (silentFailure) Reported() bool  { return true }

func runGet(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		v, err := e.Get(ctx, inv.positional[0])
		if err != nil {
			return err
		}
		return inv.emit(v, func(w io.Writer) {
			switch x := v.(type) {
			case result.BlockView:
				fmt.Fprintf(w, "%s#%s (%s)\n\n%s\n", x.Path, x.Anchor, x.Trust, x.Text)
				for _, f := range x.Footnotes {
					fmt.Fprintf(w, "\n[^%s] %s\n", f.Label, f.Time)
					for _, s := range f.Sources {
						fmt.Fprintf(w, "  %s  %s#%s\n", s.Ref, s.Path, s.Anchor)
					}
				}
			case result.SourceView:
				fmt.Fprintf(w, "%s\n%s#%s\ntime: %s\nspeaker: %s\nrecord: %s\n\n%s\n",
					x.Ref, x.Path, x.Anchor, x.Time, sourceSpeaker(x), recordTrust(x.Trust), x.Content)
			}
		})
	})
}

func runUpdate(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	tier := trust.Owner
	if as := inv.flag("as"); as != "" {
		t, err := trust.ParseTier(as)
		if err != nil || t == trust.Unpaired {
			return usagef("--as takes owner or paired, not %q", as)
		}
		tier = t
	}
	var data []byte
	var err error
	if inv.positional[0] == "-" {
		data, err = io.ReadAll(inv.stdin)
	} else {
		data, err = os.ReadFile(inv.positional[0])
	}
	if err != nil {
		return errcode.Wrap(errcode.InvalidArgument, err, "read transaction")
	}
	tx, err := result.ParseTransaction(data)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	e, err := inv.open(ctx, true, tier)
	if err != nil {
		return err
	}
	defer e.Close()
	if inv.bool("propose") {
		sub, err := proposals.Submit(ctx, e.Engine, tx)
		if err != nil {
			return err
		}
		return inv.emit(sub, func(w io.Writer) {
			if sub.Proposal == "" {
				fmt.Fprintln(w, "nothing would change: nothing proposed")
				return
			}
			fmt.Fprintf(w, "proposed %s for the owner's review: %s (see `proposals`, then `accept` or `decline`)\n", sub.Proposal, strings.Join(sub.Changed, ", "))
		})
	}
	res, err := e.Update(ctx, tx)
	if err != nil {
		return err
	}
	return inv.emit(res, func(w io.Writer) {
		if len(res.Changed) == 0 {
			fmt.Fprintf(w, "nothing changed (revision %d)\n", res.Revision)
			return
		}
		fmt.Fprintf(w, "installed revision %d: %s\n", res.Revision, strings.Join(res.Changed, ", "))
	})
}

func runCore(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		rep, err := e.Core(ctx)
		if err != nil {
			return err
		}
		return inv.emit(rep, func(w io.Writer) {
			fmt.Fprintf(w, "core.md: %d / %d tokens, %d included, %d excluded, %d pending\n",
				rep.Tokens, rep.Budget, len(rep.Included), len(rep.Excluded), len(rep.Pending))
			if len(rep.Excluded) > 0 {
				fmt.Fprintf(w, "excluded (over budget): %s\n", strings.Join(rep.Excluded, " "))
			}
			if len(rep.Pending) > 0 {
				fmt.Fprintf(w, "pending (not rendered): %s\n", strings.Join(rep.Pending, " "))
			}
		})
	})
}
