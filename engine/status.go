package engine

import (
	"context"

	"scriptorium/engine/result"
	"scriptorium/engine/runstatus"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// Status reports the workspace, writer, core and index state (SPEC §12).
// It is read-only: the core report is computed, not written.
func (e *Engine) Status(ctx context.Context) (result.Status, error) {
	if err := e.gate(trust.OpStatus); err != nil {
		return result.Status{}, err
	}
	rev, err := e.ws.Revision()
	if err != nil {
		return result.Status{}, errcode.Wrap(errcode.IO, err, "read revision")
	}
	// core.md's report needs core.md and the archives it cites; the index
	// state needs only the files' signatures.
	s, pr, partial := e.partial(ctx, func(*partialRead) []string { return []string{coreTopicPath} })
	if !partial {
		if s, err = e.snapshot(ctx); err != nil {
			return result.Status{}, err
		}
	}
	_, core := e.coreRender(s)
	st := result.Status{WorkspaceID: e.ws.ID(), Revision: rev, Backend: e.Config().Memory.Backend, Model: e.Config().ModelName(),
		Core: core, StateDir: e.state}
	st.Writer = runstatus.Writer(e.ws.RuntimeDir())
	st.Writer.PendingTurns = sessions.PendingTurnCount(workspace.SessionsDB(e.state), e.ws.ID())
	st.Hook = runstatus.Hook(e.ws.RuntimeDir())
	if partial {
		st.Index = e.indexStateOf(pr.fingerprint(), diskContent(e.ws.Root()))
	} else {
		st.Index = e.indexStateOf(s.fingerprint(e.ws.Root()), s.snapshotContent)
	}
	// Probe the lock itself: the holder file alone can miss a holder.
	if held, holder := e.ws.LockState(); held {
		st.LockHolder = holder
		st.Lock = result.LockState{Held: true, Holder: holder}
	}
	return st, nil
}
