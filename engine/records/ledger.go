package records

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"scriptorium/trust"
)

// The promotion ledger and the rejection log: records, never rebuilt from
// anything else. Rejection rows are never deleted: after a promotion the
// audit still shows the rejection before it.

// ledgerSchema creates the promotion ledger (migration 2).
const ledgerSchema = `CREATE TABLE IF NOT EXISTS promotions (
	source_id      TEXT PRIMARY KEY,
	promoted_by    TEXT NOT NULL,
	promoted_at    TEXT NOT NULL,
	previous_state TEXT NOT NULL,
	record_sha256  TEXT NOT NULL,
	path           TEXT NOT NULL,
	anchor         TEXT NOT NULL
)`

// rejectionSchema creates the rejection log beside the ledger (migration 7).
const rejectionSchema = `CREATE TABLE IF NOT EXISTS rejections (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	source_id     TEXT NOT NULL,
	rejected_by   TEXT NOT NULL,
	rejected_at   TEXT NOT NULL,
	reason        TEXT NOT NULL DEFAULT '',
	record_sha256 TEXT NOT NULL,
	path          TEXT NOT NULL,
	anchor        TEXT NOT NULL
)`

// Promoted returns the set of promoted source-ids.
func (s *Store) Promoted(ctx context.Context) (map[string]bool, error) {
	set := map[string]bool{}
	err := eachRow(ctx, s.db, `SELECT source_id FROM promotions`, nil, func(rows *sql.Rows) error {
		var id string
		if err := rows.Scan(&id); err != nil {
			return err
		}
		set[id] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read promotion ledger: %w", err)
	}
	return set, nil
}

// Promote appends promotions in one SQL transaction. Only the owner
// promotes; a source already in the ledger is skipped, so promoting twice
// is a no-op. It returns the source-ids that were newly recorded.
func (s *Store) Promote(ctx context.Context, ps []trust.Promotion) ([]string, error) {
	for _, p := range ps {
		if p.PromotedBy != trust.Owner {
			return nil, fmt.Errorf("%w: only the owner promotes sources", trust.ErrForbidden)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
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

// Promotions returns every promotion, oldest first.
func (s *Store) Promotions(ctx context.Context) ([]trust.Promotion, error) {
	var out []trust.Promotion
	err := eachRow(ctx, s.db, `SELECT source_id, promoted_by, promoted_at, previous_state,
		record_sha256, path, anchor FROM promotions ORDER BY promoted_at, source_id`, nil, func(rows *sql.Rows) error {
		var p trust.Promotion
		var by, at string
		if err := rows.Scan(&p.SourceID, &by, &at, &p.PreviousState, &p.RecordSHA256, &p.Path, &p.Anchor); err != nil {
			return err
		}
		p.PromotedBy = trust.Tier(by)
		p.PromotedAt, _ = time.Parse(time.RFC3339, at)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read promotion ledger: %w", err)
	}
	return out, nil
}

// Reject appends rejections in one SQL transaction. Only the owner
// rejects. A source already rejected or promoted is skipped, so rejecting
// twice is a no-op; it returns the source-ids newly recorded.
func (s *Store) Reject(ctx context.Context, rs []trust.Rejection) ([]string, error) {
	for _, r := range rs {
		if r.RejectedBy != trust.Owner {
			return nil, fmt.Errorf("%w: only the owner rejects sources", trust.ErrForbidden)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("record rejection: %w", err)
	}
	defer tx.Rollback()
	var added []string
	for _, r := range rs {
		// A promoted source left the queue for good; a rejected one is
		// rejected already. Either way there is nothing to record.
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM promotions WHERE source_id = ?) +
			(SELECT count(*) FROM rejections WHERE source_id = ?)`, r.SourceID, r.SourceID).Scan(&n); err != nil {
			return nil, fmt.Errorf("record rejection of %s: %w", r.SourceID, err)
		}
		if n > 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rejections
			(source_id, rejected_by, rejected_at, reason, record_sha256, path, anchor) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			r.SourceID, string(r.RejectedBy), r.RejectedAt.UTC().Format(time.RFC3339), r.Reason,
			r.RecordSHA256, r.Path, r.Anchor); err != nil {
			return nil, fmt.Errorf("record rejection of %s: %w", r.SourceID, err)
		}
		added = append(added, r.SourceID)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("record rejection: %w", err)
	}
	return added, nil
}

// Rejections returns every rejection, oldest first.
func (s *Store) Rejections(ctx context.Context) ([]trust.Rejection, error) {
	var out []trust.Rejection
	err := eachRow(ctx, s.db, `SELECT source_id, rejected_by, rejected_at, reason, record_sha256,
		path, anchor FROM rejections ORDER BY id`, nil, func(rows *sql.Rows) error {
		var r trust.Rejection
		var by, at string
		if err := rows.Scan(&r.SourceID, &by, &at, &r.Reason, &r.RecordSHA256, &r.Path, &r.Anchor); err != nil {
			return err
		}
		r.RejectedBy = trust.Tier(by)
		r.RejectedAt, _ = time.Parse(time.RFC3339, at)
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read rejections: %w", err)
	}
	return out, nil
}
