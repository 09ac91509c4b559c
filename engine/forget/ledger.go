package forget

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// The forget ledger, state.db's forgets table: one row per forget, ids
// and hashes only. done stays 0 until the finish step has run whole.

// insertLedger writes the ledger row of the forget of revision rev; it is
// idempotent (the finish step may write it again).
func insertLedger(ctx context.Context, st *records.Store, rev int64, f *record) error {
	sel, _ := json.Marshal(f.Selector)
	recs, _ := json.Marshal(nonNilRecords(f.Records))
	blocks, _ := json.Marshal(nonNil(f.Blocks))
	labels, _ := json.Marshal(nonNil(f.Labels))
	if err := st.AddForget(ctx, records.ForgetRow{Revision: rev, Time: f.Time.UTC().Format(time.RFC3339), Actor: f.Actor,
		Selector: sel, Records: recs, Blocks: blocks, Labels: labels}); err != nil {
		return fmt.Errorf("record forget: %w", err)
	}
	return nil
}

// ledgerRecord reads the ledger row of revision rev back as a record.
func ledgerRecord(ctx context.Context, st *records.Store, rev int64) (*record, bool, error) {
	row, err := st.Forget(ctx, rev)
	if err != nil {
		return nil, false, fmt.Errorf("read the forget of revision %d: %w", rev, err)
	}
	rec := &record{Actor: row.Actor}
	rec.Time, _ = time.Parse(time.RFC3339, row.Time)
	_ = json.Unmarshal(row.Selector, &rec.Selector)
	_ = json.Unmarshal(row.Records, &rec.Records)
	_ = json.Unmarshal(row.Blocks, &rec.Blocks)
	_ = json.Unmarshal(row.Labels, &rec.Labels)
	return rec, row.Done, nil
}

// Ledger lists the forget ledger, newest first.
func Ledger(ctx context.Context, e *engine.Engine) ([]result.ForgetEntry, error) {
	if err := e.Authorize(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.Records().Forgets(ctx)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read the forget ledger")
	}
	out := []result.ForgetEntry{}
	for _, row := range rows {
		f := result.ForgetEntry{Revision: row.Revision, Time: row.Time, Actor: row.Actor, Turns: row.Turns,
			Cleaned: row.Cleaned, Done: row.Done}
		_ = json.Unmarshal(row.Selector, &f.Selector)
		_ = json.Unmarshal(row.Records, &f.Records)
		if f.Records == nil {
			f.Records = []result.ForgetRecordHash{}
		}
		out = append(out, f)
	}
	return out, nil
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
