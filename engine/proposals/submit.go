package proposals

import (
	"context"
	"fmt"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// Submitted is what Submit stored: update's answer (SPEC §12) plus the
// proposal's id. Nothing is installed, so Revision is the current one and
// Changed lists the files the proposal would change once accepted.
type Submitted struct {
	Revision int64    `json:"revision"`
	Changed  []string `json:"changed"`
	// Proposal is the id of the stored proposal; "" when the edits would
	// change nothing, so there was nothing to propose.
	Proposal string `json:"proposal"`
}

// Submit stores a transaction on topics/core.md as a proposal for the
// owner to review, instead of installing it: the route SPEC §5 leaves a
// paired caller, for whom core.md, which goes into every prompt, is the
// owner's alone. Every edit must create, append to or replace
// trust.CorePath (anything else is INVALID_ARGUMENT: install the rest with
// a plain update). The transaction is checked as the owner's install of it
// would be, so the proposal can be accepted as it stands: a stale
// base_revision is CONFLICT and an edit that would break the workspace is
// REJECTED, and then nothing is stored.
func Submit(ctx context.Context, e *engine.Engine, tx result.Transaction) (Submitted, error) {
	out := Submitted{Changed: []string{}}
	if err := e.Authorize(trust.OpSubmit); err != nil {
		return out, err
	}
	for i, ed := range tx.Edits {
		if ed.Path != trust.CorePath || (ed.Op != "create" && ed.Op != "append" && ed.Op != "replace") {
			return out, errcode.Errorf(errcode.InvalidArgument,
				"edit %d (%s %s): a proposal carries only create, append or replace of %s; send the other edits as a plain update",
				i, ed.Op, ed.Path, trust.CorePath)
		}
	}
	err := e.Locked(ctx, !e.Options().Interactive, func(ltx *engine.Tx) error {
		v, err := ltx.View(ctx)
		if err != nil {
			return err
		}
		out.Revision = v.Revision
		if tx.BaseRevision == nil || *tx.BaseRevision != v.Revision {
			return errcode.Errorf(errcode.Conflict, "base_revision is not the current revision %d; read again and retry", v.Revision)
		}
		// The owner installs it when accepting, so the owner's rights are
		// what the plan is checked against.
		plan, err := e.Plan(v, engine.Change{Kind: "update", Actor: trust.Owner, Edits: tx.Edits})
		if err != nil {
			return err
		}
		if bad := engine.NewViolations(v, plan.After); len(bad) > 0 {
			return &errcode.Error{Code: errcode.Rejected, Violations: bad,
				Message: fmt.Sprintf("proposal rejected: %d violation(s); nothing was proposed", len(bad))}
		}
		p := FromPlan(e, "update", "", v, plan)
		if len(p.Files) == 0 {
			return nil // nothing would change: nothing to decide
		}
		p.ProposedBy = string(e.Options().Tier)
		if err := store(e, p); err != nil {
			return err
		}
		out.Proposal = p.ID
		for _, c := range p.Changed {
			out.Changed = append(out.Changed, c.Path)
		}
		return nil
	})
	return out, err
}
