package trust

import (
	"context"
	"fmt"
	"time"
)

// RejectionSchema creates the rejection log beside the promotion ledger.
// A rejection takes a pending source out of the owner's review queue; it
// changes no trust: the source stays pending (never searched, recalled or
// rendered) and a later promotion still trusts it. Rows are never deleted:
// after such a promotion the audit still shows the rejection before it.
const RejectionSchema = `CREATE TABLE IF NOT EXISTS rejections (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	source_id     TEXT NOT NULL,
	rejected_by   TEXT NOT NULL,
	rejected_at   TEXT NOT NULL,
	reason        TEXT NOT NULL DEFAULT '',
	record_sha256 TEXT NOT NULL,
	path          TEXT NOT NULL,
	anchor        TEXT NOT NULL
)`

// Rejection is one row of the rejection log.
type Rejection struct {
	SourceID     string
	RejectedBy   Tier
	RejectedAt   time.Time
	Reason       string // the owner's words, "" when none was given
	RecordSHA256 string // SHA-256 of the record bytes the owner saw
	Path, Anchor string
}

// Reject appends rejections in one SQL transaction. Only the owner rejects.
// A source already rejected or promoted is skipped, so rejecting twice is a
// no-op; it returns the source-ids newly recorded.
func (l *Ledger) Reject(ctx context.Context, rs []Rejection) ([]string, error) {
	for _, r := range rs {
		if r.RejectedBy != Owner {
			return nil, fmt.Errorf("%w: only the owner rejects sources", ErrForbidden)
		}
	}
	tx, err := l.db.BeginTx(ctx, nil)
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
func (l *Ledger) Rejections(ctx context.Context) ([]Rejection, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT source_id, rejected_by, rejected_at, reason, record_sha256,
		path, anchor FROM rejections ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read rejections: %w", err)
	}
	defer rows.Close()
	var out []Rejection
	for rows.Next() {
		var r Rejection
		var by, at string
		if err := rows.Scan(&r.SourceID, &by, &at, &r.Reason, &r.RecordSHA256, &r.Path, &r.Anchor); err != nil {
			return nil, fmt.Errorf("read rejections: %w", err)
		}
		r.RejectedBy = Tier(by)
		r.RejectedAt, _ = time.Parse(time.RFC3339, at)
		out = append(out, r)
	}
	return out, rows.Err()
}
