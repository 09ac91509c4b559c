package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/review"
	"scriptorium/errcode"
)

func runPending(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		if inv.bool("rejected") {
			return emitRejected(ctx, inv, e)
		}
		ps, err := review.Pending(ctx, e)
		if err != nil {
			return err
		}
		chats := groupPending(ps)
		if chats == nil {
			chats = []pendingChat{}
		}
		return inv.emit(map[string]any{"sources": ps, "chats": chats}, func(w io.Writer) { printPending(w, ps) })
	})
}

// emitRejected is `pending --rejected`: the sources the owner rejected,
// still untrusted, oldest rejection first.
func emitRejected(ctx context.Context, inv *invocation, e *engine.Engine) error {
	rs, err := review.Rejected(ctx, e)
	if err != nil {
		return err
	}
	return inv.emit(map[string]any{"sources": rs}, func(w io.Writer) {
		if len(rs) == 0 {
			fmt.Fprintln(w, "no rejected sources")
		}
		for _, r := range rs {
			reason := r.Reason
			if reason == "" {
				reason = "no reason given"
			}
			fmt.Fprintf(w, "%s  %s  %s\n    rejected %s: %s\n    %s\n", r.Time, r.Ref, orNone(r.SpeakerLabel),
				r.RejectedAt, reason, oneLine(r.Content, 100))
		}
	})
}

func runPromote(inv *invocation) error {
	if err := reviewArgs(inv); err != nil {
		return err
	}
	// Promotion is the owner's deliberate act: a terminal or an explicit --yes.
	if !inv.bool("yes") && !inv.isTerminal() {
		return &errcode.Error{Code: errcode.Forbidden,
			Message: "promote is interactive: run it on a terminal or pass --yes"}
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		known, queue, err := reviewQueue(ctx, e)
		if err != nil {
			return err
		}
		refs, sel, err := reviewTargets(inv, queue)
		if err != nil {
			return err
		}
		if !inv.bool("yes") {
			// Say whose words become trusted, not just how many.
			fmt.Fprintln(inv.stderr, "To promote (they become trusted and searchable; those no topic cites are distilled into one):")
			question := fmt.Sprintf("Promote %d source(s)? [y/N] ", len(refs))
			if sel != nil {
				question = senderQuestion(inv.stderr, "Promote", sel)
			} else {
				describeSources(inv.stderr, refs, known)
			}
			if !inv.confirm(question) {
				return errcode.Errorf(errcode.InvalidArgument, "promotion cancelled; nothing changed")
			}
		}
		res, err := e.Promote(ctx, refs)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if len(res.Promoted) == 0 {
				fmt.Fprintln(w, "nothing to promote (already trusted)")
				return
			}
			fmt.Fprintf(w, "promoted as revision %d (now trusted and searchable):\n", res.Revision)
			describeSources(w, res.Promoted, known)
			if len(res.Distilled) > 0 {
				fmt.Fprintf(w, "distilled %s into %s\n", strings.Join(res.Distilled, ", "), strings.Join(res.Topics, ", "))
			}
			if cited := len(res.Promoted) - len(res.Distilled); cited > 0 {
				fmt.Fprintf(w, "%d already cited by a topic: not distilled again\n", cited)
			}
		})
	})
}

func runHistory(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		hs, err := audit.History(ctx, e, 0)
		if err != nil {
			return err
		}
		return inv.emit(map[string]any{"entries": hs}, func(w io.Writer) {
			if len(hs) == 0 {
				fmt.Fprintln(w, "no history yet")
			}
			for _, h := range hs {
				rev := "-"
				if h.Revision > 0 {
					rev = "r" + strconv.FormatInt(h.Revision, 10)
				}
				changed := strings.Join(h.Changed, ", ")
				if changed == "" {
					changed = "no changes"
				}
				fmt.Fprintf(w, "%s  %-5s %-9s %-6s %s\n", h.Time, rev, h.Kind, h.Actor, changed)
			}
		})
	})
}
