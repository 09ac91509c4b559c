package engine

import (
	"context"
	"time"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/trust"
)

// Passes lists every recorded sleep pass, newest first, for the passes pane.
func (e *Engine) Passes(ctx context.Context) ([]result.PassReport, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	ps, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []result.PassReport{}
	}
	return ps, nil
}

// RecordPass appends the report to the passes table and sets its number
// and time.
func (e *Engine) RecordPass(ctx context.Context, rep *result.PassReport) error {
	rep.Time = e.opts.Now().UTC().Format(time.RFC3339)
	if rep.Changed == nil {
		rep.Changed = []result.FileDiff{}
	}
	rep.CoreGap = nonNil(rep.CoreGap)
	id, err := e.rec.AddPass(ctx, records.Pass{Time: rep.Time, Model: rep.Model, Revision: rep.Revision, Changed: rep.Changed,
		TokensIn: rep.TokensIn, TokensOut: rep.TokensOut, Error: rep.Error, CoreGap: rep.CoreGap})
	if err != nil {
		return AsError(err)
	}
	rep.Pass = id
	return nil
}
