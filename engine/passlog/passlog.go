// Package passlog records a sleep or proposal pass's report in the passes
// table of state.db. It needs no journal, so it lives outside the core, on
// the engine's exported records store and clock.
package passlog

import (
	"context"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// Record appends the report to the passes table of e's workspace and sets
// its number and time.
func Record(ctx context.Context, e *engine.Engine, rep *result.PassReport) error {
	rep.Time = e.Now().UTC().Format(time.RFC3339)
	if rep.Changed == nil {
		rep.Changed = []result.FileDiff{}
	}
	rep.CoreGap = records.NonNil(rep.CoreGap)
	id, err := e.Records().AddPass(ctx, records.Pass{Time: rep.Time, Model: rep.Model, Revision: rep.Revision, Changed: rep.Changed,
		TokensIn: rep.TokensIn, TokensOut: rep.TokensOut, Error: rep.Error, CoreGap: rep.CoreGap})
	if err != nil {
		return errcode.As(err)
	}
	rep.Pass = id
	return nil
}
