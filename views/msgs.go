package views

import (
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/curate"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
)

// Requests: a pane returns Send(request); the root runs the engine work in a
// command and answers with the matching result message.
type (
	// LoadStatus asks for the engine's status (result.Status).
	LoadStatus struct{}
	// LoadPending asks for the pending sources.
	LoadPending struct{}
	// LoadTopics asks for the topic tree.
	LoadTopics struct{}
	// LoadTopic asks for one topic file.
	LoadTopic struct{ Path string }
	// LoadArchive asks for one source archive.
	LoadArchive struct{ Path string }
	// LoadCore asks for the core view.
	LoadCore struct{}
	// LoadPasses asks for the sleep passes.
	LoadPasses struct{}
	// RunSearch runs a search.
	RunSearch struct{ Query result.SearchQuery }
	// Promote promotes pending sources; Summary says what in words
	// ("2 sources from telegram/group-42"), Who whose words they are
	// (speakers with message ids), for the result line.
	Promote struct {
		Refs    []string
		Summary string
		Who     string
	}
	// Reject takes pending sources out of the review queue; Summary says
	// which in words, Reason why (may be empty).
	Reject struct {
		Refs    []string
		Summary string
		Reason  string
	}
	// LoadRejected asks for the rejected sources.
	LoadRejected struct{}
	// LoadAudit asks for the audit trail.
	LoadAudit struct{}
	// MoveCoreBlock moves a block of topics/core.md by Delta (-1 up, +1 down).
	MoveCoreBlock struct {
		ID    string
		Delta int
	}
	// LoadExplain asks why a block is in core.md or left out.
	LoadExplain struct{ ID string }
	// ReorderCore moves a block of topics/core.md (to the top, a position,
	// into or out of the pinned section).
	ReorderCore struct {
		ID   string
		Move result.CoreMove
	}
	// RunSleep runs a sleep pass now.
	RunSleep struct{}
	// LoadProposals asks for the proposals waiting for the owner.
	LoadProposals struct{}
	// AcceptProposal installs a proposal, or only the files in Only.
	AcceptProposal struct {
		ID   string
		Only []string
	}
	// DeclineProposal drops a proposal, or only the files in Only.
	DeclineProposal struct {
		ID   string
		Only []string
	}
	// PreviewRevert computes, without installing, the revert of Revision.
	PreviewRevert struct {
		Revision int64
		// From names the pane that asked ("audit"; "" is the passes
		// pane), so only it shows the preview and asks to confirm.
		From string
	}
	// RunRevert installs the revert of Revision.
	RunRevert struct{ Revision int64 }
	// Confirm asks the owner first; Action is sent when they answer y.
	Confirm struct {
		Prompt string
		Action tea.Msg
	}
	// OpenArchive drills down to a source archive at an anchor.
	OpenArchive struct{ Path, Anchor string }
	// CloseArchive leaves the drill-down, back to where it was opened.
	CloseArchive struct{}
	// OpenBlock shows a block in the topics pane.
	OpenBlock struct{ Path, ID string }
	// Notice puts a line in the status bar (an error one when Err).
	Notice struct {
		Text string
		Err  bool
	}
)

// Results: the root sends these to every pane; each takes what it needs.
type (
	// StatusLoaded answers LoadStatus.
	StatusLoaded struct {
		Status result.Status
		Err    error
	}
	// PendingLoaded answers LoadPending.
	PendingLoaded struct {
		Sources []result.PendingSource
		Err     error
	}
	// TopicsLoaded answers LoadTopics.
	TopicsLoaded struct {
		Topics []result.TopicSummary
		Err    error
	}
	// TopicLoaded answers LoadTopic.
	TopicLoaded struct {
		Path  string
		Topic result.TopicView
		Err   error
	}
	// ArchiveLoaded answers LoadArchive.
	ArchiveLoaded struct {
		Path    string
		Archive result.ArchiveView
		Err     error
	}
	// CoreLoaded answers LoadCore.
	CoreLoaded struct {
		Core result.CoreView
		Err  error
	}
	// PassesLoaded answers LoadPasses.
	PassesLoaded struct {
		Passes []result.PassReport
		Err    error
	}
	// SearchDone answers RunSearch.
	SearchDone struct {
		Query   result.SearchQuery
		Results []result.SearchResult
		Err     error
	}
	// Promoted answers Promote.
	Promoted struct {
		Refs   []string
		Who    string
		Result result.PromoteResult
		Err    error
	}
	// SourcesRejected answers Reject.
	SourcesRejected struct {
		Request Reject
		Result  result.RejectResult
		Err     error
	}
	// RejectedLoaded answers LoadRejected.
	RejectedLoaded struct {
		Sources []result.RejectedSource
		Err     error
	}
	// AuditLoaded answers LoadAudit.
	AuditLoaded struct {
		Report result.AuditReport
		Err    error
	}
	// CoreMoved answers MoveCoreBlock.
	CoreMoved struct {
		ID     string
		Delta  int
		Result result.UpdateResult
		Err    error
	}
	// ProposalsLoaded answers LoadProposals.
	ProposalsLoaded struct {
		Proposals []proposals.Proposal
		Err       error
	}
	// ProposalAccepted answers AcceptProposal.
	ProposalAccepted struct {
		Request AcceptProposal
		Result  proposals.AcceptResult
		Err     error
	}
	// ProposalDeclined answers DeclineProposal.
	ProposalDeclined struct {
		Request   DeclineProposal
		Remaining []string
		Err       error
	}
	// RevertPreviewed answers PreviewRevert: the diff a revert would install.
	RevertPreviewed struct {
		Revision int64
		From     string
		Result   result.RevertResult
		Err      error
	}
	// Reverted answers RunRevert.
	Reverted struct {
		Revision int64
		Result   result.RevertResult
		Err      error
	}
	// ExplainLoaded answers LoadExplain.
	ExplainLoaded struct {
		ID          string
		Explanation result.CoreExplanation
		Err         error
	}
	// CoreReordered answers ReorderCore.
	CoreReordered struct {
		Request ReorderCore
		Result  result.CoreMoveResult
		Err     error
	}
	// SleepDone answers RunSleep.
	SleepDone struct {
		Report result.PassReport
		Err    error
	}
	// SizeChanged follows SetSize, so panes can start work that depends on
	// their width (markdown renders).
	SizeChanged struct{}
)

// Forget: F on a pending record (its speaker), T (its thread), F on a
// frame of the drill-down (that source) opens the preview; enter there
// asks to confirm, and the confirmation runs it.
type (
	// PreviewForget opens the forget preview: the dry run of Selector.
	// What names the selection for people ("speaker Bob (u456)").
	PreviewForget struct {
		Selector result.ForgetSelector
		What     string
	}
	// ForgetPreviewed answers PreviewForget.
	ForgetPreviewed struct {
		Request PreviewForget
		Result  result.ForgetResult
		Err     error
	}
	// RunForget forgets Selector for good.
	RunForget struct {
		Selector result.ForgetSelector
		What     string
	}
	// Forgotten answers RunForget.
	Forgotten struct {
		Request RunForget
		Result  result.ForgetResult
		Err     error
	}
	// CloseForget leaves the forget preview; nothing changes.
	CloseForget struct{}
)

// The owner's corrections of a block (E, D, M on the topics and core
// panes). Edit runs the editor through the root; delete and move are
// previewed (a dry run that also refuses a linked delete at once), then
// confirmed, then installed.
type (
	// EditBlock opens block ID of Path in $VISUAL/$EDITOR; the root
	// suspends the TUI, saves a valid text and reopens a refused one with
	// the reasons noted above it.
	EditBlock struct{ ID, Path string }
	// BlockEdited answers EditBlock once the editor closed on a text that
	// was saved, or left nothing to save (Why says so).
	BlockEdited struct {
		Request EditBlock
		Result  curate.EditResult
		Why     string
		Err     error
	}
	// PreviewDelete computes what deleting block ID of Path removes.
	PreviewDelete struct{ ID, Path string }
	// DeletePreviewed answers PreviewDelete.
	DeletePreviewed struct {
		Request PreviewDelete
		Result  curate.DeleteResult
		Err     error
	}
	// DeleteBlock deletes block ID of Path.
	DeleteBlock struct{ ID, Path string }
	// BlockDeleted answers DeleteBlock.
	BlockDeleted struct {
		Request DeleteBlock
		Result  curate.DeleteResult
		Err     error
	}
	// PickTopic opens the topic picker to move block ID out of Path; Text
	// is the block's text, for the picker's title.
	PickTopic struct{ ID, Path, Text string }
	// PreviewMove computes what moving a block would change.
	PreviewMove struct {
		ID, From, To, Under string
	}
	// MovePreviewed answers PreviewMove.
	MovePreviewed struct {
		Request PreviewMove
		Result  curate.MoveResult
		Err     error
	}
	// MoveBlock moves a block to another topic file.
	MoveBlock struct {
		ID, From, To, Under string
	}
	// BlockMoved answers MoveBlock.
	BlockMoved struct {
		Request MoveBlock
		Result  curate.MoveResult
		Err     error
	}
)
