package trust

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// LedgerSchema creates the promotion ledger table. The engine runs it as one
// of state.db's numbered migrations. The ledger is a record, not a cache: it
// is never rebuilt from anything else.
const LedgerSchema = `CREATE TABLE IF NOT EXISTS promotions (
	source_id      TEXT PRIMARY KEY,
	promoted_by    TEXT NOT NULL,
	promoted_at    TEXT NOT NULL,
	previous_state TEXT NOT NULL,
	record_sha256  TEXT NOT NULL,
	path           TEXT NOT NULL,
	anchor         TEXT NOT NULL
)`

// Promotion is one audit record of the ledger.
type Promotion struct {
	SourceID      string
	PromotedBy    Tier
	PromotedAt    time.Time
	PreviousState string // "pending"
	RecordSHA256  string // SHA-256 of the record bytes the owner saw
	Path, Anchor  string
}

// Ledger reads and appends promotions in state.db.
type Ledger struct{ db *sql.DB }

// NewLedger wraps an open state.db whose migrations created LedgerSchema.
func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Promoted returns the set of promoted source-ids.
func (l *Ledger) Promoted(ctx context.Context) (map[string]bool, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT source_id FROM promotions`)
	if err != nil {
		return nil, fmt.Errorf("read promotion ledger: %w", err)
	}
	defer rows.Close()
	set := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read promotion ledger: %w", err)
		}
		set[id] = true
	}
	return set, rows.Err()
}

// Record appends promotions in one SQL transaction. Only the owner promotes;
// a source already in the ledger is skipped, so promoting twice is a no-op.
// It returns the source-ids that were newly recorded.
func (l *Ledger) Record(ctx context.Context, ps []Promotion) ([]string, error) {
	for _, p := range ps {
		if p.PromotedBy != Owner {
			return nil, fmt.Errorf("%w: only the owner promotes sources", ErrForbidden)
		}
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("record promotion: %w", err)
	}
	defer tx.Rollback()
	var added []string
	for _, p := range ps {
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO promotions
			(source_id, promoted_by, promoted_at, previous_state, record_sha256, path, anchor)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			p.SourceID, string(p.PromotedBy), p.PromotedAt.UTC().Format(time.RFC3339),
			p.PreviousState, p.RecordSHA256, p.Path, p.Anchor)
		if err != nil {
			return nil, fmt.Errorf("record promotion of %s: %w", p.SourceID, err)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			added = append(added, p.SourceID)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("record promotion: %w", err)
	}
	return added, nil
}

// All returns every promotion, oldest first.
func (l *Ledger) All(ctx context.Context) ([]Promotion, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT source_id, promoted_by, promoted_at, previous_state,
		record_sha256, path, anchor FROM promotions ORDER BY promoted_at, source_id`)
	if err != nil {
		return nil, fmt.Errorf("read promotion ledger: %w", err)
	}
	defer rows.Close()
	var out []Promotion
	for rows.Next() {
		var p Promotion
		var by, at string
		if err := rows.Scan(&p.SourceID, &by, &at, &p.PreviousState, &p.RecordSHA256, &p.Path, &p.Anchor); err != nil {
			return nil, fmt.Errorf("read promotion ledger: %w", err)
		}
		p.PromotedBy = Tier(by)
		p.PromotedAt, _ = time.Parse(time.RFC3339, at)
		out = append(out, p)
	}
	return out, rows.Err()
}
