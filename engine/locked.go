package engine

import (
	"context"
	"time"

	"scriptorium/engine/filediff"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// The services (writer, sleep, daemon) work on the engine through this
// file and view.go: a consistent View, a transaction held under the write
// lock, and Install. Nothing in the core knows what a writer or a model is.

// kindOps maps a history kind to the operation its caller must be allowed.
// edit, delete and move are the owner correcting one block by hand
// (engine/curate): updates, recorded as their own kinds for the audit.
var kindOps = map[string]trust.Op{
	"write": trust.OpWrite, "backfill": trust.OpBackfill, "sleep": trust.OpSleep,
	"promote": trust.OpPromote, "update": trust.OpUpdate, "revert": trust.OpRevert,
	"edit": trust.OpUpdate, "delete": trust.OpUpdate, "move": trust.OpUpdate,
	"forget": trust.OpForget,
}

// Install validates a change against the whole would-be workspace and
// installs it crash-atomically, taking the write lock for the duration.
// The change's kind must be one the caller's tier may perform.
func (e *Engine) Install(ctx context.Context, ch Change) (result.UpdateResult, error) {
	if err := e.gateKind(ch.Kind); err != nil {
		return result.UpdateResult{}, err
	}
	return e.install(ctx, e.withActor(ch))
}

func (e *Engine) gateKind(kind string) error {
	op, ok := kindOps[kind]
	if !ok {
		return errcode.Errorf(errcode.InvalidArgument, "unknown install kind %q", kind)
	}
	return e.gate(op)
}

func (e *Engine) withActor(ch Change) Change {
	if ch.Actor == "" {
		ch.Actor = e.opts.Tier
	}
	return ch
}

// Tx is work done under the workspace write lock: its views cannot change
// underneath it and its installs see no concurrent writer. It is valid
// only inside the function given to Locked.
type Tx struct {
	e *Engine
	// sources are added to every install's history row: promotion hands
	// the Distiller a Tx naming all it promoted, cited already or not.
	sources []string
}

// Locked runs fn holding the write lock. A background caller gives up
// after 1 s on a lock held by another writer (LOCK_BUSY).
func (e *Engine) Locked(ctx context.Context, background bool, fn func(tx *Tx) error) error {
	release, err := e.lock(ctx, background)
	if err != nil {
		return err
	}
	defer release()
	return fn(&Tx{e: e})
}

// Engine is the engine the transaction belongs to.
func (tx *Tx) Engine() *Engine { return tx.e }

// View reads the workspace; under the lock the revision and the files are
// one pair by construction.
func (tx *Tx) View(ctx context.Context) (*View, error) {
	rev, err := tx.e.revision()
	if err != nil {
		return nil, err
	}
	s, err := tx.e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return &View{Revision: rev, s: s}, nil
}

// SourcesView is View for View.Source of refs alone: a cold one-shot
// engine parses only the archives holding them (issue 26: reject at 1M).
func (tx *Tx) SourcesView(ctx context.Context, refs []string) (*View, error) {
	if s, _, ok := tx.e.partial(ctx, func(pr *partialRead) (ps []string) {
		for _, r := range refs {
			ps = append(ps, pr.PathsForRef(r)...)
		}
		return ps
	}); ok {
		rev, err := tx.e.revision()
		return &View{Revision: rev, s: s}, err
	}
	return tx.View(ctx)
}

// Install installs a change inside the transaction (see Engine.Install).
func (tx *Tx) Install(ctx context.Context, ch Change) (result.UpdateResult, error) {
	if err := tx.e.gateKind(ch.Kind); err != nil {
		return result.UpdateResult{}, err
	}
	ch.Sources = append(ch.Sources[:len(ch.Sources):len(ch.Sources)], tx.sources...)
	return tx.e.installLocked(ctx, tx.e.withActor(ch))
}

// Plan is a validated change not yet installed: what it would change and
// the view after it, for rules a service checks before installing.
type Plan struct {
	// Changed lists the paths whose bytes change, sorted.
	Changed []string
	// After is the would-be view once the plan is installed.
	After *View
	p     *txPlan
}

// Bytes returns a changed path's bytes before and after the plan; nil
// means the file does not exist on that side.
func (p *Plan) Bytes(path string) (before, after []byte) { return p.p.old[path], p.p.files[path] }

// Diff is the unified diff of one changed path.
func (p *Plan) Diff(path string) string {
	return filediff.Unified(path, p.p.old[path], p.p.files[path])
}

// Plan applies a change to v in memory, checking paths and the actor's
// rights, without installing anything. An edit refused on its own makes
// the whole plan REJECTED.
func (e *Engine) Plan(v *View, ch Change) (*Plan, error) {
	p, err := e.plan(v.s, e.withActor(ch))
	if err != nil {
		return nil, err
	}
	return &Plan{Changed: p.order, After: &View{Revision: v.Revision + 1, s: v.s.with(p)}, p: p}, nil
}

// Authorize reports FORBIDDEN when the engine's tier may not perform op.
func (e *Engine) Authorize(op trust.Op) error { return e.gate(op) }

// Options returns the options the engine was opened with (defaults
// filled in).
func (e *Engine) Options() Options { return e.opts }

// Now is the engine's clock.
func (e *Engine) Now() time.Time { return e.opts.Now() }

// WorkspaceID is the id of the open workspace.
func (e *Engine) WorkspaceID() string { return e.ws.ID() }

// Revision reads the current revision.
func (e *Engine) Revision() (int64, error) { return e.revision() }

// RuntimeDir is the workspace's directory for best-effort runtime status
// files (.scriptorium/runtime).
func (e *Engine) RuntimeDir() string { return e.ws.RuntimeDir() }
