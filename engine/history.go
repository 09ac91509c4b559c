package engine

import (
	"context"
	"encoding/json"
	"sort"

	"scriptorium/trust"
)

// History lists installed transactions and sleep passes, newest first.
// A pass that changed nothing has no revision (0) and no changed files.
func (e *Engine) History(ctx context.Context, limit int) ([]HistoryEntry, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.db.QueryContext(ctx, `SELECT revision, time, actor, kind, changed, diffs, reverts FROM history`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read history from state.db")
	}
	defer rows.Close()
	var out []HistoryEntry
	for rows.Next() {
		var h HistoryEntry
		var changed, diffs string
		if err := rows.Scan(&h.Revision, &h.Time, &h.Actor, &h.Kind, &changed, &diffs, &h.Reverts); err != nil {
			return nil, Wrap(CodeIO, err, "read history from state.db")
		}
		_ = json.Unmarshal([]byte(changed), &h.Changed)
		_ = json.Unmarshal([]byte(diffs), &h.Diffs)
		h.Changed = nonNil(h.Changed)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, Wrap(CodeIO, err, "read history from state.db")
	}
	passes, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range passes {
		if p.Revision != 0 {
			continue // its install is already a history row of kind sleep
		}
		out = append(out, HistoryEntry{Kind: "sleep", Time: p.Time, Actor: string(trust.Owner), Changed: []string{}})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Time != out[j].Time {
			return out[i].Time > out[j].Time
		}
		return out[i].Revision > out[j].Revision
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if out == nil {
		out = []HistoryEntry{}
	}
	return out, nil
}

// passes reads every sleep pass report, newest first.
func (e *Engine) passes(ctx context.Context) ([]PassReport, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT id, time, model, revision, changed, tokens_in, tokens_out, error, core_gap
		FROM passes ORDER BY id DESC`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read sleep passes from state.db")
	}
	defer rows.Close()
	var out []PassReport
	for rows.Next() {
		var p PassReport
		var changed, gap string
		if err := rows.Scan(&p.Pass, &p.Time, &p.Model, &p.Revision, &changed, &p.TokensIn, &p.TokensOut, &p.Error, &gap); err != nil {
			return nil, Wrap(CodeIO, err, "read sleep passes from state.db")
		}
		_ = json.Unmarshal([]byte(changed), &p.Changed)
		_ = json.Unmarshal([]byte(gap), &p.CoreGap)
		if p.Changed == nil {
			p.Changed = []FileDiff{}
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, Wrap(CodeIO, err, "read sleep passes from state.db")
	}
	return out, nil
}
