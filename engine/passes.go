package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

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
	changed, err := json.Marshal(rep.Changed)
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	gap, err := json.Marshal(rep.CoreGap)
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	// The report must outlive a cancelled caller: the pass already ran.
	res, err := e.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO passes
		(time, model, revision, changed, tokens_in, tokens_out, error, core_gap) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		rep.Time, rep.Model, rep.Revision, string(changed), rep.TokensIn, rep.TokensOut, rep.Error, string(gap))
	if err != nil {
		return Wrap(CodeIO, err, "record sleep pass")
	}
	if id, err := res.LastInsertId(); err == nil {
		rep.Pass = id
	}
	return nil
}
