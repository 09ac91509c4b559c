package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// An import suspends the pending_counts_insert trigger for its insert and
// does the trigger's work once per session at commit. The trigger runs a
// DELETE on pending_counts for every inserted row, a sub-program with a
// temporary table of its own, which costs SQLite about as much as the row
// (BenchmarkStoreChat). DROP and CREATE TRIGGER are part of the import's
// transaction: a rollback or a crash restores the trigger with the rows,
// and no other connection ever sees the file without it.

// suspendCounts is false in a test that compares against the trigger.
var suspendCounts = true

const countTriggerQuery = `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'pending_counts_insert'`

// suspendCountTrigger drops the trigger and returns its definition, ""
// when there is none to drop (then nothing is restored).
func suspendCountTrigger(ctx context.Context, tx *sql.Tx) (string, error) {
	var text string
	err := tx.QueryRowContext(ctx, countTriggerQuery).Scan(&text)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("suspend the pending count trigger: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DROP TRIGGER pending_counts_insert`); err != nil {
		return "", fmt.Errorf("suspend the pending count trigger: %w", err)
	}
	return text, nil
}

// resumeCountTrigger does what the trigger would have done for the
// sessions that gained nodes — drop their cached counts — and creates it
// again from its own definition, so the schema reads as before.
func resumeCountTrigger(ctx context.Context, tx *sql.Tx, text string, touched map[SessionKey]bool) error {
	for sk := range touched {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pending_counts
 WHERE session = (SELECT seq FROM sessions WHERE provider = ? AND id = ?)`, sk.Provider, sk.Session); err != nil {
			return fmt.Errorf("restore the pending count trigger: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, text); err != nil {
		return fmt.Errorf("restore the pending count trigger: %w", err)
	}
	return nil
}
