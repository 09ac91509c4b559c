package engine

import (
	"context"
	"database/sql"

	"scriptorium/engine/records"
	"scriptorium/trust"
)

// state.db belongs to engine/records; the core's install code names its
// history rows through these short names.
type (
	historyRecord = records.History
	fileChange    = records.FileChange
)

func insertHistory(ctx context.Context, db *sql.DB, h historyRecord) error {
	return records.InsertHistory(ctx, db, h)
}

// nonNil is s, or an empty slice for nil (JSON [] rather than null).
func nonNil(s []string) []string { return records.NonNil(s) }

// Records is the workspace's state.db, for the services that read its
// records (revert's recorded topic bytes, the audit trail).
func (e *Engine) Records() *records.Store { return e.rec }

// Ledger is the trust ledger (promotions and rejections) in state.db, for
// the audit trail.
func (e *Engine) Ledger() *trust.Ledger { return e.ledger }
