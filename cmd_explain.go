package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
)

// runExplain says why a block is in core.md or left out.
func runExplain(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		x, err := recall.ExplainCore(ctx, e, inv.positional[0])
		if err != nil {
			return err
		}
		return inv.emit(x, func(w io.Writer) {
			pin := ""
			if x.Pinned {
				pin = ", pinned"
			}
			fmt.Fprintf(w, "^%s in %s: %s%s\n", x.ID, x.Path, x.State, pin)
			if x.Position > 0 {
				fmt.Fprintf(w, "position %d of %d blocks in topics/core.md; %d tokens alone", x.Position, x.Blocks, x.Tokens)
				if x.RunningTotal > 0 {
					fmt.Fprintf(w, "; core.md up to it: %d of %d tokens", x.RunningTotal, x.Budget)
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "trust: %s\nwhy: %s\n", x.Trust, x.Reason)
			for _, c := range x.Sources {
				fmt.Fprintf(w, "source: %s (%s#%s)\n", c.Ref, c.Path, c.Anchor)
			}
		})
	})
}

// runReorder moves a block of topics/core.md in one transaction and shows
// the core render before and after.
func runReorder(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	var m result.CoreMove
	n := 0
	if inv.bool("top") {
		m.Top = true
		n++
	}
	if inv.bool("pin") {
		m.Pin = true
		n++
	}
	if inv.bool("unpin") {
		m.Unpin = true
		n++
	}
	if inv.set["to"] {
		to, err := strconv.Atoi(inv.flag("to"))
		if err != nil || to < 1 {
			return usagef("--to needs a position from 1, not %q", inv.flag("to"))
		}
		m.To = to
		n++
	}
	if n != 1 {
		return usagef("reorder needs exactly one of --top, --to N, --pin, --unpin")
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		res, err := recall.ReorderCore(ctx, e, inv.positional[0], m)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if len(res.Changed) == 0 {
				fmt.Fprintf(w, "^%s is already there (position %d): nothing changed\n", strings.TrimPrefix(inv.positional[0], "^"), res.Position)
				return
			}
			fmt.Fprintf(w, "moved to position %d (revision %d)\n", res.Position, res.Revision)
			fmt.Fprintf(w, "before: %d/%d tokens, included %s\n", res.Before.Tokens, res.Before.Budget, idList(res.Before.Included))
			fmt.Fprintf(w, "after:  %d/%d tokens, included %s\n", res.After.Tokens, res.After.Budget, idList(res.After.Included))
		})
	})
}

func idList(ids []string) string {
	if len(ids) == 0 {
		return "nothing"
	}
	return "^" + strings.Join(ids, " ^")
}
