package tui

import (
	"context"

	"scriptorium/engine/curate"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/views"
)

// Backend is everything the TUI asks of the engine. The real implementation
// wraps *engine.Engine; tests use a fake. Every method may do IO and so is
// only ever called from a tea.Cmd, never from Update or View.
type Backend interface {
	Status(ctx context.Context) (result.Status, error)
	Pending(ctx context.Context) ([]result.PendingSource, error)
	// Promote promotes pending sources by source-id (owner, confirmed in the UI).
	Promote(ctx context.Context, refs []string) (result.PromoteResult, error)
	// Reject takes pending sources out of the review queue (owner,
	// confirmed in the UI); they stay untrusted.
	Reject(ctx context.Context, refs []string, reason string) (result.RejectResult, error)
	// Rejected lists the rejected sources that are still untrusted.
	Rejected(ctx context.Context) ([]result.RejectedSource, error)
	// Audit reads the audit trail, newest first.
	Audit(ctx context.Context, q result.AuditQuery) (result.AuditReport, error)
	Topics(ctx context.Context) ([]result.TopicSummary, error)
	Topic(ctx context.Context, path string) (result.TopicView, error)
	// Archive returns the archive that holds a source, for drill-down.
	Archive(ctx context.Context, path string) (result.ArchiveView, error)
	Core(ctx context.Context) (result.CoreView, error)
	// MoveCoreBlock moves a block of topics/core.md up (delta -1) or down (+1)
	// through a normal transaction.
	MoveCoreBlock(ctx context.Context, id string, delta int) (result.UpdateResult, error)
	// ExplainCore says why a block is in core.md or left out.
	ExplainCore(ctx context.Context, id string) (result.CoreExplanation, error)
	// ReorderCore moves a block of topics/core.md in one transaction.
	ReorderCore(ctx context.Context, id string, m result.CoreMove) (result.CoreMoveResult, error)
	Passes(ctx context.Context) ([]result.PassReport, error)
	Sleep(ctx context.Context) (result.PassReport, error)
	// Proposals lists the passes and writer batches waiting for the owner.
	Proposals(ctx context.Context) ([]proposals.Proposal, error)
	// Accept installs a proposal (only the files in only, when given).
	Accept(ctx context.Context, id string, only []string) (proposals.AcceptResult, error)
	// Decline drops a proposal (only the files in only, when given) and
	// returns the files still waiting.
	Decline(ctx context.Context, id string, only []string) ([]string, error)
	// Revert installs (or on a dry run only computes) the inverse of rev.
	Revert(ctx context.Context, rev int64, dryRun bool) (result.RevertResult, error)
	// Forget removes what sel selects for good, or on a dry run lists
	// every place that holds it.
	Forget(ctx context.Context, sel result.ForgetSelector, dryRun bool) (result.ForgetResult, error)
	Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error)
	// Recall is what an agent is given for a prompt (engine/recall: the
	// prompt hook's and MCP memory_recall's context).
	Recall(ctx context.Context, prompt string) (views.Recalled, error)
	// FindBlock reads a block with its citations and the links to it, for
	// the editor file (ref: "path#^id").
	FindBlock(ctx context.Context, ref string) (curate.Block, error)
	// EditBlock replaces a block's text (owner); a refused text is REJECTED
	// with its reasons.
	EditBlock(ctx context.Context, req curate.EditRequest) (curate.EditResult, error)
	// DeleteBlock removes a block (owner), or on a dry run says what would
	// go; a block other blocks link to is REJECTED, naming the links.
	DeleteBlock(ctx context.Context, ref string, dryRun bool) (curate.DeleteResult, error)
	// MoveBlock moves a block to another topic file (owner); req.DryRun
	// only says what would change.
	MoveBlock(ctx context.Context, req curate.MoveRequest) (curate.MoveResult, error)
	// LockHolder says who holds the workspace write lock ("pid 4242
	// scriptorium update since …"); held is false when it is free.
	LockHolder() (holder string, held bool)
	// Changes delivers a value whenever another process changes the workspace.
	Changes() <-chan struct{}
}
