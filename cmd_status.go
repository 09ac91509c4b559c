package main

import (
	"context"
	"fmt"
	"io"

	"scriptorium/engine"
	"scriptorium/engine/config"
)

func runStatus(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		st, err := e.Status(ctx)
		if err != nil {
			return err
		}
		return inv.emit(st, func(w io.Writer) {
			fmt.Fprintf(w, "workspace  %s (%s)\n", st.WorkspaceID, e.Root())
			fmt.Fprintf(w, "revision   %d\n", st.Revision)
			fmt.Fprintf(w, "backend    %s\n", st.Backend)
			model := st.Model
			if model == config.OfflineModelName {
				model += " (built-in deterministic model, no network)"
			}
			fmt.Fprintf(w, "model      %s\n", model)
			fmt.Fprintf(w, "lock       %s\n", orNone(st.LockHolder))
			fmt.Fprintf(w, "writer     last success %s, pending turns %d\n", orNone(st.Writer.LastSuccessAt), st.Writer.PendingTurns)
			if f := st.Writer.LastFailure; f != nil {
				fmt.Fprintf(w, "           last failure %s (%s, retryable: %v): %s\n", f.At, f.Code, f.Retryable, f.Message)
			}
			for _, f := range st.Writer.FailedSessions {
				fmt.Fprintf(w, "           failed session %s/%s %s (%s): %s\n", f.Provider, f.Session, f.At, f.Code, f.Message)
			}
			if h := st.Hook; h.LastSuccessAt != "" || h.LastFailure != nil {
				fmt.Fprintf(w, "hook       last success %s (%s)\n", orNone(h.LastSuccessAt), orNone(h.LastEvent))
				if f := h.LastFailure; f != nil {
					on := ""
					if f.Event != "" {
						on = " on " + f.Event
					}
					fmt.Fprintf(w, "           last failure %s%s (%s): %s\n", f.At, on, f.Code, f.Message)
				}
				if h.StaleIndexAt != "" {
					fmt.Fprintf(w, "           answered from the index as it stood at %s (edits behind the engine's back; the next search without a deadline, serve or the daemon brings it up to date)\n", h.StaleIndexAt)
				}
			}
			fmt.Fprintf(w, "core       %d / %d tokens, %d included, %d excluded, %d pending\n",
				st.Core.Tokens, st.Core.Budget, len(st.Core.Included), len(st.Core.Excluded), len(st.Core.Pending))
			fmt.Fprintf(w, "index      %d documents, format %d, fresh: %v\n", st.Index.Documents, st.Index.Format, st.Index.Fresh)
		})
	})
}
