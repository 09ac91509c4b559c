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
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: inv.bool("force"), Session: inv.flag("session")})
		if err != nil {
			return err
		}
		return inv.emit(res, func(w io.Writer) {
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
