package main

import (
	"context"
	"fmt"
	"io"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

func runWrite(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	if inv.bool("redistill") {
		return runRedistill(inv)
	}
	if inv.flag("thread") != "" {
		return usagef("--thread goes with --redistill (write --session limits a write to one session)")
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: inv.bool("force"), Session: inv.flag("session")})
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			defer func() {
				if res.CoreProposal != "" {
					fmt.Fprintf(w, "proposed for topics/core.md: the standing preferences and instructions it filed (see proposals; accept %s or decline %s)\n",
						res.CoreProposal, res.CoreProposal)
				}
			}()
			if res.Batches == 0 {
				// Say what status says: turns below the threshold are owed,
				// just not yet worth a batch.
				if n := sessions.PendingTurnCount(workspace.SessionsDB(e.StateDir()), e.WorkspaceID()); n > 0 && !inv.bool("force") {
					fmt.Fprintf(w, "no batch written: %d turn(s) pending, below the %d-token threshold (write --force writes them now); revision %d\n",
						n, writer.WriteThreshold, res.Revision)
					return
				}
				fmt.Fprintf(w, "nothing owed (revision %d)\n", res.Revision)
				return
			}
			fmt.Fprintf(w, "wrote %d batch(es); revision %d\n", res.Batches, res.Revision)
		})
	})
}

func runBackfill(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Backfill(ctx, e)
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			fmt.Fprintf(w, "distilled %d source(s) in %d batch(es)\n", res.Sources, res.Batches)
		})
	})
}

// runRedistill is `write --redistill [--thread T]`: a proposal, never a
// change to memory (the owner accepts or declines it).
func runRedistill(inv *invocation) error {
	if inv.bool("force") || inv.flag("session") != "" {
		return usagef("--redistill proposes; it takes --thread, not --force or --session")
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Redistill(ctx, e, writer.RedistillOptions{Thread: inv.flag("thread")})
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
			if res.Proposal == "" {
				fmt.Fprintf(w, "nothing to redistill: no block written one turn each (revision %d)\n", res.Revision)
				return
			}
			fmt.Fprintf(w, "proposal %s: %d turn block(s) of %d thread(s) become %d new block(s), %d restated, %d replaced; %d file(s)\n",
				res.Proposal, res.TurnBlocks, len(res.Threads), res.Added, res.Cited, res.Replaced, len(res.Changed))
			if res.Kept > 0 {
				fmt.Fprintf(w, "kept %d turn block(s) that other blocks link to\n", res.Kept)
			}
			fmt.Fprintf(w, "review it: scriptorium proposals; then accept %s or decline %s\n", res.Proposal, res.Proposal)
		})
	})
}
