package engine

import (
	"context"
	"time"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// RecordPass appends the report to the passes table and sets its number
// and time.
func (e *Engine) RecordPass(ctx context.Context, rep *result.PassReport) error {
	rep.Time = e.opts.Now().UTC().Format(time.RFC3339)
	if rep.Changed == nil {
		rep.Changed = []result.FileDiff{}
	}
	rep.CoreGap = records.NonNil(rep.CoreGap)
	id, err := e.rec.AddPass(ctx, records.Pass{Time: rep.Time, Model: rep.Model, Revision: rep.Revision, Changed: rep.Changed,
		TokensIn: rep.TokensIn, TokensOut: rep.TokensOut, Error: rep.Error, CoreGap: rep.CoreGap})
	if err != nil {
		return errcode.As(err)
	}
	rep.Pass = id
	return nil
}
