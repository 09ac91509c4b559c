package forget

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
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
	conn, err := e.StateDB().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Zero what the scrub frees instead of leaving it in the pages' free
	// space (the VACUUM below would drop it too; this costs nothing).
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	rows, err := scrubState(ctx, conn, rev, nd, true)
	if err != nil {
		return err
	}
	cleaned = append(cleaned, rows...)
	var prev string
	_ = conn.QueryRowContext(ctx, `SELECT cleaned FROM forgets WHERE revision = ?`, rev).Scan(&prev)
	var all []string
	_ = json.Unmarshal([]byte(prev), &all)
	doc, _ := json.Marshal(nonNil(append(all, cleaned...)))
	if _, err := conn.ExecContext(ctx, `UPDATE forgets SET turns = turns + ?, cleaned = ? WHERE revision = ?`,
		turns, string(doc), rev); err != nil {
		return err
	}
	if err := sessions.CompactConn(ctx, conn); err != nil {
		return fmt.Errorf("compact state.db: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `UPDATE forgets SET done = 1 WHERE revision = ?`, rev); err != nil {
		return err
	}
	_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return nil
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
