package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// An import suspends the triggers that run for every inserted node and
// does their work once at commit: pending_counts_insert runs a DELETE on
// pending_counts, a sub-program with a temporary table of its own, which
// cost SQLite about as much as the row; nodes_has_children a sub-program
// and a seek for the parent (BenchmarkStoreChat). DROP and CREATE TRIGGER
// are part of the import's transaction: a rollback or a crash restores the
// triggers with the rows, and no other connection ever sees the file
// without them.

// suspendCounts is false in a test that compares against the triggers.
var suspendCounts = true

// suspendedTriggers are the triggers an import suspends, in the order they
// are created again.
var suspendedTriggers = []string{"nodes_has_children", "pending_counts_insert"}

const triggerQuery = `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`

// suspendInsertTriggers drops the triggers and returns their definitions,
// nil when one is missing (then none is dropped or restored).
func suspendInsertTriggers(ctx context.Context, tx *sql.Tx) ([]string, error) {
	var texts []string
	for _, name := range suspendedTriggers {
		var text string
		err := tx.QueryRowContext(ctx, triggerQuery, name).Scan(&text)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return nil, nil
		case err != nil:
			return nil, fmt.Errorf("suspend the insert triggers: %w", err)
		}
		texts = append(texts, text)
	}
	for _, name := range suspendedTriggers {
		if _, err := tx.ExecContext(ctx, `DROP TRIGGER `+name); err != nil {
			return nil, fmt.Errorf("suspend the insert triggers: %w", err)
		}
	}
	return texts, nil
}

// resumeInsertTriggers does what the triggers would have done — mark the
// stored parents that gained children, drop the cached counts of the
// sessions that gained nodes — and creates them again from their own
// definitions, so the schema reads as before.
func resumeInsertTriggers(ctx context.Context, tx *sql.Tx, texts []string, parents []int64, touched map[SessionKey]bool) error {
	// The insert marked the parents among its own rows already; parents
	// are those stored before each insert (by the batch or before it).
	if len(parents) > 0 {
		mark, err := tx.PrepareContext(ctx, `UPDATE nodes SET has_children = 1 WHERE seq = ? AND has_children = 0`)
		if err != nil {
			return fmt.Errorf("restore the insert triggers: %w", err)
		}
		defer mark.Close()
		for _, seq := range parents {
			if _, err := mark.ExecContext(ctx, seq); err != nil {
				return fmt.Errorf("restore the insert triggers: %w", err)
			}
		}
	}
	for sk := range touched {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pending_counts
 WHERE session = (SELECT seq FROM sessions WHERE provider = ? AND id = ?)`, sk.Provider, sk.Session); err != nil {
			return fmt.Errorf("restore the insert triggers: %w", err)
		}
	}
	for _, text := range texts {
		if _, err := tx.ExecContext(ctx, text); err != nil {
			return fmt.Errorf("restore the insert triggers: %w", err)
		}
	}
	return nil
}
