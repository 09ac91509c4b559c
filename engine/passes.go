package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"scriptorium/engine/records"
	"scriptorium/trust"
)

// Passes lists every recorded sleep pass, newest first, for the passes pane.
func (e *Engine) Passes(ctx context.Context) ([]PassReport, error) {
	if err := e.gate(trust.OpHistory); err != nil {
		return nil, err
	}
	ps, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []PassReport{}
	}
	return ps, nil
}

// Summary is the pass in one line, for logs and the CLI: its number and
// model, then "no changes", the files it changed, or why it was rejected.
func (r PassReport) Summary() string {
	head := fmt.Sprintf("sleep pass #%d (%s)", r.Pass, r.Model)
	if r.Error != "" {
		return head + ": rejected, nothing changed: " + flattenSpace(r.Error)
	}
	if len(r.Changed) == 0 {
		return head + ": no changes"
	}
	paths := make([]string, len(r.Changed))
	for i, c := range r.Changed {
		paths[i] = c.Path
	}
	return fmt.Sprintf("%s: revision %d, %d file(s) changed: %s", head, r.Revision, len(r.Changed), strings.Join(paths, ", "))
}

func flattenSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// RecordPass appends the report to the passes table and sets its number
// and time.
func (e *Engine) RecordPass(ctx context.Context, rep *PassReport) error {
	rep.Time = e.opts.Now().UTC().Format(time.RFC3339)
	if rep.Changed == nil {
		rep.Changed = []FileDiff{}
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
