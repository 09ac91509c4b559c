package engine

import (
	"context"
	"sort"

	"scriptorium/engine/result"
	"scriptorium/trust"
)

// History lists installed transactions and sleep passes, newest first.
// A pass that changed nothing has no revision (0) and no changed files.
func (e *Engine) History(ctx context.Context, limit int) ([]result.HistoryEntry, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.rec.Histories(ctx)
	if err != nil {
		return nil, AsError(err)
	}
	out := make([]result.HistoryEntry, 0, len(rows))
	for _, h := range rows {
		out = append(out, result.HistoryEntry{Revision: h.Revision, Time: h.Time, Actor: h.Actor, Kind: h.Kind,
			Changed: h.Changed, Diffs: h.Diffs, Reverts: h.Reverts})
	}
	passes, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range passes {
		if p.Revision != 0 {
			continue // its install is already a history row of kind sleep
		}
		out = append(out, result.HistoryEntry{Kind: "sleep", Time: p.Time, Actor: string(trust.Owner), Changed: []string{}})
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
		out = []result.HistoryEntry{}
	}
	return out, nil
}

// passes reads every sleep pass report, newest first.
func (e *Engine) passes(ctx context.Context) ([]result.PassReport, error) {
	rows, err := e.rec.Passes(ctx)
	if err != nil {
		return nil, AsError(err)
	}
	out := make([]result.PassReport, 0, len(rows))
	for _, p := range rows {
		out = append(out, result.PassReport{Pass: p.ID, Time: p.Time, Model: p.Model, Changed: p.Changed, TokensIn: p.TokensIn,
			TokensOut: p.TokensOut, Revision: p.Revision, Error: p.Error, CoreGap: p.CoreGap})
	}
	return out, nil
}
