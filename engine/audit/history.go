package audit

import (
	"context"
	"sort"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// History lists installed transactions and sleep passes, newest first.
// A pass that changed nothing has no revision (0) and no changed files.
func History(ctx context.Context, e *engine.Engine, limit int) ([]result.HistoryEntry, error) {
	if err := e.Authorize(trust.OpHistory); err != nil {
		return nil, err
	}
	rows, err := e.Records().Histories(ctx)
	if err != nil {
		return nil, errcode.As(err)
	}
	out := make([]result.HistoryEntry, 0, len(rows))
	for _, h := range rows {
		out = append(out, result.HistoryEntry{Revision: h.Revision, Time: h.Time, Actor: h.Actor, Kind: h.Kind,
			Changed: h.Changed, Diffs: h.Diffs, Reverts: h.Reverts})
	}
	passes, err := passReports(ctx, e)
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
	return out, nil
}

// Passes lists every recorded sleep pass, newest first, for the passes pane.
func Passes(ctx context.Context, e *engine.Engine) ([]result.PassReport, error) {
	if err := e.Authorize(trust.OpHistory); err != nil {
		return nil, err
	}
	return passReports(ctx, e)
}

// passReports reads every sleep pass report, newest first.
func passReports(ctx context.Context, e *engine.Engine) ([]result.PassReport, error) {
	rows, err := e.Records().Passes(ctx)
	if err != nil {
		return nil, errcode.As(err)
	}
	out := make([]result.PassReport, 0, len(rows))
	for _, p := range rows {
		out = append(out, result.PassReport{Pass: p.ID, Time: p.Time, Model: p.Model, Changed: p.Changed, TokensIn: p.TokensIn,
			TokensOut: p.TokensOut, Revision: p.Revision, Error: p.Error, CoreGap: p.CoreGap})
	}
	return out, nil
}
