package forget

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"scriptorium/engine"
	"scriptorium/engine/depcache"
	"scriptorium/engine/records"
	"scriptorium/engine/sessions"
	"scriptorium/engine/viewcache"
	"scriptorium/workspace"
)

// What a forget cleans outside the workspace files, after its install:
// the derived views and the search index (rebuilt), the sessions.db
// turns, the vector cache, proposals and runtime files, and earlier copies
// of the text in state.db (history bytes and diffs, pass diffs, events);
// then both SQLite files are compacted so that no free page or write-ahead
// log frame keeps a byte of it.

// finish does everything of a forget outside the file install, under the
// write lock. Each step is idempotent; the ledger row is marked done only
// when all of them succeeded, so an interrupted one is finished later (the
// core runs the finish step again).
func finish(ctx context.Context, tx *engine.Tx, rev int64, rec *record, nd needles) error {
	e := tx.Engine()
	turns, err := forgetSessions(e, rec)
	if err != nil {
		return err
	}
	if err := tx.RebuildAll(ctx); err != nil {
		return err
	}
	if err := viewcache.Remove(e.RuntimeDir()); err != nil {
		return err
	}
	if err := depcache.Remove(e.RuntimeDir()); err != nil {
		return err
	}
	v, err := tx.View(ctx)
	if err != nil {
		return err
	}
	cleaned, err := scrubProposals(e, nd, true)
	if err != nil {
		return err
	}
	if n, err := scrubVectors(e, v); err != nil {
		return err
	} else if n > 0 {
		cleaned = append(cleaned, fmt.Sprintf("embeddings.db: %d vector(s) of texts no longer in memory", n))
	}
	rt, err := scrubRuntime(e, nd, true)
	if err != nil {
		return err
	}
	cleaned = append(cleaned, rt...)
	return e.Records().Scrub(ctx, func(w *records.Scrubber) error {
		rows, err := scrubState(ctx, w, rev, nd)
		if err != nil {
			return err
		}
		if err := w.AddCleaned(ctx, rev, turns, append(cleaned, rows...)); err != nil {
			return err
		}
		if err := w.Compact(ctx); err != nil {
			return fmt.Errorf("compact state.db: %w", err)
		}
		return w.Done(ctx, rev)
	})
}

// forgetSessions blanks the selected sessions.db nodes and compacts the
// file; a workspace without sessions.db has none.
func forgetSessions(e *engine.Engine, rec *record) (int, error) {
	path := workspace.SessionsDB(e.StateDir())
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	st, err := sessions.Open(path, nil)
	if err != nil {
		return 0, fmt.Errorf("open sessions.db: %w", err)
	}
	defer st.Close()
	n, err := st.Forget(sessionSelector(rec.Selector), rec.Time)
	if err != nil {
		return 0, err
	}
	if err := st.Compact(); err != nil {
		return n, fmt.Errorf("sessions.db: %w", err)
	}
	return n, nil
}
