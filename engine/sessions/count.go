package sessions

import (
	"database/sql"
	"fmt"
	"os"
)

// pendingCountsSchema is migration 3: pending_counts caches, per session
// and workspace, how many turns the writer owes. A row exists only while
// the session's nodes are unchanged since it was counted: the triggers
// drop a session's rows on any insert, update or delete of its nodes.
const pendingCountsSchema = `CREATE TABLE pending_counts (
	session   INTEGER NOT NULL REFERENCES sessions(seq),
	workspace TEXT NOT NULL,
	turns     INTEGER NOT NULL,
	PRIMARY KEY (session, workspace)
) WITHOUT ROWID;
CREATE TRIGGER pending_counts_insert AFTER INSERT ON nodes
BEGIN
	DELETE FROM pending_counts WHERE session = NEW.session;
END;
CREATE TRIGGER pending_counts_update AFTER UPDATE ON nodes
BEGIN
	DELETE FROM pending_counts WHERE session = NEW.session;
	DELETE FROM pending_counts WHERE session = OLD.session;
END;
CREATE TRIGGER pending_counts_delete AFTER DELETE ON nodes
BEGIN
	DELETE FROM pending_counts WHERE session = OLD.session;
END;`

var (
	// uncountedQuery counts the pending turns of the sessions that have no
	// cached count for :ws, per session (sessions owing nothing give no row).
	uncountedQuery = fmt.Sprintf(pendingWalk, `has_children = 0 AND session IN (SELECT seq FROM sessions
	 WHERE seq NOT IN (SELECT session FROM pending_counts WHERE workspace = :ws))`, `UNION`) + `
SELECT n.session, count(*) FROM walk w CROSS JOIN nodes n ON n.seq = w.seq
 WHERE ` + turnFilter + ` GROUP BY n.session`

	cacheZeroQuery = `INSERT INTO pending_counts(session, workspace, turns)
 SELECT seq, :ws, 0 FROM sessions WHERE seq NOT IN (SELECT session FROM pending_counts WHERE workspace = :ws)`
	cacheCountQuery = `UPDATE pending_counts SET turns = ? WHERE session = ? AND workspace = ?`
	cachedSumQuery  = `SELECT coalesce(sum(turns), 0) FROM pending_counts WHERE workspace = ?`
)

// PendingTurnTotal counts the turns the writer still owes workspaceID, as the
// sum of PendingSessions' counts. Only the sessions changed since the last
// count are walked again (pending_counts); their new counts are stored in
// the same transaction, so a concurrent import or write can never leave a
// stale one behind. A store that cannot be written is counted in full.
func (s *Store) PendingTurnTotal(workspaceID string) (int, error) {
	if workspaceID == "" {
		return 0, fmt.Errorf("pending turns: %w: empty workspace id", ErrInvalidArgument)
	}
	tx, err := s.db.Begin()
	if err != nil {
		return s.countAll(workspaceID)
	}
	defer tx.Rollback()
	ws := sql.Named("ws", workspaceID)
	rows, err := tx.Query(uncountedQuery, ws)
	if err != nil {
		return 0, fmt.Errorf("pending turns: %w", err)
	}
	counts := map[int64]int{}
	for rows.Next() {
		var session int64
		var n int
		if err := rows.Scan(&session, &n); err != nil {
			rows.Close()
			return 0, fmt.Errorf("pending turns: %w", err)
		}
		counts[session] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("pending turns: %w", err)
	}
	if _, err := tx.Exec(cacheZeroQuery, ws); err != nil {
		return s.countAll(workspaceID)
	}
	for session, n := range counts {
		if _, err := tx.Exec(cacheCountQuery, n, session, workspaceID); err != nil {
			return s.countAll(workspaceID)
		}
	}
	var total int
	if err := tx.QueryRow(cachedSumQuery, workspaceID).Scan(&total); err != nil {
		return 0, fmt.Errorf("pending turns: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return s.countAll(workspaceID)
	}
	return total, nil
}

// countAll is PendingTurnTotal without the cache.
func (s *Store) countAll(workspaceID string) (int, error) {
	ps, err := s.PendingSessions(workspaceID)
	total := 0
	for _, p := range ps {
		total += p.Turns
	}
	return total, err
}

// PendingTurnCount counts the turns the writer still owes workspaceID,
// best-effort: a missing or unreadable sessions.db owes nothing (status
// must answer even when the store is damaged).
func PendingTurnCount(path, workspaceID string) int {
	if _, err := os.Stat(path); err != nil {
		return 0
	}
	store, err := Open(path, nil)
	if err != nil {
		return 0
	}
	defer store.Close()
	n, err := store.PendingTurnTotal(workspaceID)
	if err != nil {
		return 0
	}
	return n
}
