package writer

import (
	"context"
	"fmt"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// propose is the writer's batch under writer.mode = "propose": the turns'
// source records are archived at once (they are evidence, append-only,
// and the owner's review cites them), while the topic edits distilled
// from them wait as a proposal the owner accepts or declines. The edits
// are checked against the workspace as an install would be, so a proposal
// the owner sees can be accepted as it stands.
func (w *writer) propose(ctx context.Context, store *sessions.Store, nodes []sessions.Node, v *engine.View, archives map[string][]byte, edits []result.Edit) error {
	if len(archives) > 0 {
		if err := w.install(ctx, store, nodes, engine.Change{Kind: "write", Actor: trust.Owner, Base: &v.Revision,
			Archives: archives}); err != nil {
			return err
		}
	}
	return w.e.Locked(ctx, true, func(tx *engine.Tx) error {
		now, err := tx.View(ctx)
		if err != nil {
			return err
		}
		plan, err := w.e.Plan(now, engine.Change{Kind: "write", Actor: trust.Owner, Edits: edits})
		if err != nil {
			return err
		}
		if bad := engine.NewViolations(now, plan.After); len(bad) > 0 {
			return &errcode.Error{Code: errcode.Rejected, Violations: bad,
				Message: fmt.Sprintf("the writer's proposal was rejected: %d violation(s); nothing was proposed", len(bad))}
		}
		return proposals.Save(w.e, proposals.FromPlan(w.e, "write", "", now, plan))
	})
}
