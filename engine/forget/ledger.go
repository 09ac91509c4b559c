package forget

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/trust"
)

// The forget ledger, state.db's forgets table: one row per forget, ids
// and hashes only. done stays 0 until the finish step has run whole.

// insertLedger writes the ledger row of the forget of revision rev; it is
// idempotent (the finish step may write it again).
func insertLedger(ctx context.Context, db *sql.DB, rev int64, f *record) error {
	sel, _ := json.Marshal(f.Selector)
	recs, _ := json.Marshal(nonNilRecords(f.Records))
	blocks, _ := json.Marshal(nonNil(f.Blocks))
	labels, _ := json.Marshal(nonNil(f.Labels))
	_, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO forgets (revision, time, actor, selector, records, blocks, labels)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, rev, f.Time.UTC().Format(time.RFC3339), f.Actor,
		string(sel), string(recs), string(blocks), string(labels))
	if err != nil {
		return fmt.Errorf("record forget: %w", err)
	}
	return nil
}

// ledgerRecord reads the ledger row of revision rev back as a record.
func ledgerRecord(ctx context.Context, db *sql.DB, rev int64) (*record, bool, error) {
	var tm, sel, recs, blocks, labels string
	var done bool
	rec := &record{}
	err := db.QueryRowContext(ctx, `SELECT time, actor, selector, records, blocks, labels, done FROM forgets WHERE revision = ?`, rev).
		Scan(&tm, &rec.Actor, &sel, &recs, &blocks, &labels, &done)
	if err != nil {
		return nil, false, fmt.Errorf("read the forget of revision %d: %w", rev, err)
	}
	rec.Time, _ = time.Parse(time.RFC3339, tm)
	_ = json.Unmarshal([]byte(sel), &rec.Selector)
	_ = json.Unmarshal([]byte(recs), &rec.Records)
	_ = json.Unmarshal([]byte(blocks), &rec.Blocks)
	_ = json.Unmarshal([]byte(labels), &rec.Labels)
	return rec, done, nil
}

// Ledger lists the forget ledger, newest first.
func Ledger(ctx context.Context, e *engine.Engine) ([]result.ForgetEntry, error) {
	if err := e.Authorize(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.StateDB().QueryContext(ctx, `SELECT revision, time, actor, selector, records, turns, cleaned, done
		FROM forgets ORDER BY revision DESC`)
	if err != nil {
		return nil, engine.Wrap(engine.CodeIO, err, "read the forget ledger")
	}
	defer rows.Close()
	out := []result.ForgetEntry{}
	for rows.Next() {
		var f result.ForgetEntry
		var sel, recs, cleaned string
		if err := rows.Scan(&f.Revision, &f.Time, &f.Actor, &sel, &recs, &f.Turns, &cleaned, &f.Done); err != nil {
			return nil, engine.Wrap(engine.CodeIO, err, "read the forget ledger")
		}
		_ = json.Unmarshal([]byte(sel), &f.Selector)
		_ = json.Unmarshal([]byte(recs), &f.Records)
		_ = json.Unmarshal([]byte(cleaned), &f.Cleaned)
		if f.Records == nil {
			f.Records = []result.ForgetRecordHash{}
		}
		f.Cleaned = nonNil(f.Cleaned)
		out = append(out, f)
	}
	return out, rows.Err()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilRecords(r []result.ForgottenRecord) []result.ForgottenRecord {
	if r == nil {
		return []result.ForgottenRecord{}
	}
	return r
}
