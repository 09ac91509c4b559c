// Package enginebackend adapts an open *engine.Engine (with the sleep and
// curate services) to tui.Backend, so the CLI and the screenshot generator
// drive the TUI through the same code.
package enginebackend

import (
	"context"
	"os"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/browse"
	"scriptorium/engine/curate"
	"scriptorium/engine/forget"
	"scriptorium/engine/proposals"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/revert"
	"scriptorium/engine/review"
	"scriptorium/engine/sleep"
	"scriptorium/tui"
	"scriptorium/views"
	"scriptorium/workspace"
)

// backend is the TUI's view of an open engine. Each method runs inside a
// tea.Cmd, never on the update loop.
type backend struct {
	e       *engine.Engine
	changes <-chan struct{}
}

// New returns the tui.Backend over e. changes delivers a value whenever
// another process changes the workspace (engine.Watch); nil means the TUI
// does not watch.
func New(e *engine.Engine, changes <-chan struct{}) tui.Backend {
	return backend{e: e, changes: changes}
}

// Recall is the recall service's answer for the prompt, from the TUI's
// working directory as the recall verb asks it.
func (b backend) Recall(ctx context.Context, prompt string) (views.Recalled, error) {
	cwd, _ := os.Getwd()
	res, err := recall.Recall(ctx, b.e, recall.Request{Prompt: prompt, Cwd: cwd})
	if err != nil {
		return views.Recalled{}, err
	}
	out := views.Recalled{Text: res.Text, Tokens: res.Tokens, Budget: res.Budget, Items: make([]views.RecalledItem, 0, len(res.Items))}
	for _, it := range res.Items {
		out.Items = append(out.Items, views.RecalledItem{Kind: it.Kind, Ref: it.Ref, Path: it.Path, Anchor: it.Anchor,
			Date: it.Date, Tokens: it.Tokens, Text: it.Text})
	}
	return out, nil
}

func (b backend) Status(ctx context.Context) (result.Status, error) { return b.e.Status(ctx) }

func (b backend) Pending(ctx context.Context) ([]result.PendingSource, error) {
	return review.Pending(ctx, b.e)
}

func (b backend) Promote(ctx context.Context, refs []string) (result.PromoteResult, error) {
	return b.e.Promote(ctx, refs)
}

func (b backend) Reject(ctx context.Context, refs []string, reason string) (result.RejectResult, error) {
	return review.Reject(ctx, b.e, refs, reason)
}

func (b backend) Rejected(ctx context.Context) ([]result.RejectedSource, error) {
	return review.Rejected(ctx, b.e)
}

func (b backend) Audit(ctx context.Context, q result.AuditQuery) (result.AuditReport, error) {
	return audit.Audit(ctx, b.e, q)
}

func (b backend) Topics(ctx context.Context) ([]result.TopicSummary, error) {
	return browse.Topics(ctx, b.e)
}

func (b backend) Topic(ctx context.Context, path string) (result.TopicView, error) {
	return browse.Topic(ctx, b.e, path)
}

func (b backend) Archive(ctx context.Context, path string) (result.ArchiveView, error) {
	return browse.Archive(ctx, b.e, path)
}

func (b backend) Core(ctx context.Context) (result.CoreView, error) { return browse.CoreView(ctx, b.e) }

func (b backend) MoveCoreBlock(ctx context.Context, id string, delta int) (result.UpdateResult, error) {
	return curate.MoveCoreBlock(ctx, b.e, id, delta)
}

func (b backend) ExplainCore(ctx context.Context, id string) (result.CoreExplanation, error) {
	return recall.ExplainCore(ctx, b.e, id)
}

func (b backend) ReorderCore(ctx context.Context, id string, m result.CoreMove) (result.CoreMoveResult, error) {
	return recall.ReorderCore(ctx, b.e, id, m)
}

func (b backend) Passes(ctx context.Context) ([]result.PassReport, error) {
	return audit.Passes(ctx, b.e)
}

func (b backend) Sleep(ctx context.Context) (result.PassReport, error) {
	return sleep.Sleep(ctx, b.e, sleep.SleepOptions{})
}

func (b backend) Proposals(context.Context) ([]proposals.Proposal, error) { return proposals.List(b.e) }

func (b backend) Accept(ctx context.Context, id string, only []string) (proposals.AcceptResult, error) {
	return proposals.Accept(ctx, b.e, id, only)
}

func (b backend) Decline(ctx context.Context, id string, only []string) ([]string, error) {
	return proposals.Decline(ctx, b.e, id, only)
}

func (b backend) Revert(ctx context.Context, rev int64, dryRun bool) (result.RevertResult, error) {
	return revert.Revert(ctx, b.e, rev, dryRun)
}

func (b backend) Forget(ctx context.Context, sel result.ForgetSelector, dryRun bool) (result.ForgetResult, error) {
	return forget.Run(ctx, b.e, sel, dryRun)
}

func (b backend) Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error) {
	return b.e.Search(ctx, q)
}

func (b backend) FindBlock(ctx context.Context, ref string) (curate.Block, error) {
	return curate.Find(ctx, b.e, ref)
}

func (b backend) EditBlock(ctx context.Context, req curate.EditRequest) (curate.EditResult, error) {
	return curate.Edit(ctx, b.e, req)
}

func (b backend) DeleteBlock(ctx context.Context, ref string, dryRun bool) (curate.DeleteResult, error) {
	return curate.Delete(ctx, b.e, ref, dryRun)
}

func (b backend) MoveBlock(ctx context.Context, req curate.MoveRequest) (curate.MoveResult, error) {
	return curate.Move(ctx, b.e, req)
}

func (b backend) LockHolder() (string, bool) { return workspace.ReadLockHolder(b.e.Root()) }

func (b backend) Changes() <-chan struct{} { return b.changes }
