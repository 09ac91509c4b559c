// Package result holds the engine's public request and result types
// (SPEC §12's JSON shapes): what the core, the services, the hosts and the
// front ends hand one another. A leaf: it imports no engine package but
// the stores and formats its fields are made of.
package result

import (
	"scriptorium/engine/index"
	"scriptorium/engine/records"
	"scriptorium/errcode"
	"scriptorium/render"
)

// The types in this file are the engine's public results. Their JSON field
// names are the contract of SPEC §12: the CLI prints them as they are, the
// TUI shows them, and hosts receive them through the Backend.

// SourceView is one source record, as `get` returns it for a source.
type SourceView struct {
	Kind           string `json:"kind"` // always "source"
	Ref            string `json:"ref"`  // source-id
	Path           string `json:"path"` // "sources/openprogram/_v2/sess.md"
	Anchor         string `json:"anchor"`
	Time           string `json:"time"`  // RFC 3339 UTC, "" if unknown
	Label          string `json:"label"` // the record label: speaker label or role
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	SpeakerLabel   string `json:"speaker_label"`
	SpeakerTrusted bool   `json:"speaker_trusted"`
	Trust          string `json:"trust"` // "trusted" or "pending"
	// Forgotten marks a record the owner forgot: a tombstone (or a blanked
	// legacy record) whose anchor still resolves but whose content is gone.
	Forgotten bool `json:"forgotten,omitempty"`

	Legacy bool   `json:"-"` // from a frozen legacy archive
	Line   int    `json:"-"` // 1-based line of the frame (v2) or header (legacy)
	Text   string `json:"-"` // the stored record text, verbatim
}

// CitationView is one source a footnote cites.
type CitationView struct {
	Ref    string `json:"ref"`
	Path   string `json:"path"` // workspace-relative, e.g. "sources/openprogram/_v2/sess.md"
	Anchor string `json:"anchor"`
}

// FootnoteView is one footnote of a block.
type FootnoteView struct {
	Label   string         `json:"label"`
	Time    string         `json:"time"` // the footnote's YYYY-MM-DD
	Sources []CitationView `json:"sources"`
}

// BlockView is one topic block, as `get` returns it for a block.
type BlockView struct {
	Kind      string         `json:"kind"` // always "topic"
	Ref       string         `json:"ref"`  // 8 hex digits, no ^
	Path      string         `json:"path"`
	Anchor    string         `json:"anchor"` // "^" + ref
	Text      string         `json:"text"`   // the block as written, without its " ^id"
	Trust     string         `json:"trust"`  // "trusted" or "pending"
	Footnotes []FootnoteView `json:"footnotes"`

	Line int `json:"-"`
}

// PendingSource is one row of `pending`.
type PendingSource struct {
	Ref          string `json:"ref"`
	Path         string `json:"path"`
	Anchor       string `json:"anchor"`
	Time         string `json:"time"`
	SpeakerLabel string `json:"speaker_label"`
	SpeakerID    string `json:"speaker_id"`
	Content      string `json:"content"`

	// Thread is "<provider>/<thread>": the chat it was said in, by which
	// pending and the Pending pane group sources.
	Thread string `json:"chat"`
	Text   string `json:"-"` // the verbatim record text
}

// CoreReport is the result of rendering core.md (SPEC §8): the
// renderer's own report, so the two can never drift apart.
type CoreReport = render.CoreReport

// UpdateResult is the outcome of an installed transaction.
type UpdateResult struct {
	Revision int64    `json:"revision"`
	Changed  []string `json:"changed"`
}

// HistoryEntry is one installed transaction or sleep pass.
type HistoryEntry struct {
	Kind     string   `json:"kind"` // write, update, sleep, promote, backfill, migration
	Revision int64    `json:"revision"`
	Time     string   `json:"time"`
	Actor    string   `json:"actor"` // tier
	Changed  []string `json:"changed"`
	// Reverts is set on a revert: the revision it undid.
	Reverts int64 `json:"reverts,omitempty"`

	Diffs map[string]string `json:"-"` // unified diff per changed path
}

// FileDiff is one file a pass changed.
type FileDiff = records.FileDiff

// PassReport is one sleep pass (SPEC §9, §12).
type PassReport struct {
	Pass      int64      `json:"pass"`
	Time      string     `json:"time"`
	Model     string     `json:"model"`
	Changed   []FileDiff `json:"changed"`
	TokensIn  int        `json:"tokens_in"`
	TokensOut int        `json:"tokens_out"`

	Revision int64    `json:"-"` // revision installed, 0 if nothing changed
	Error    string   `json:"-"` // why a rejected pass changed nothing
	CoreGap  []string `json:"-"` // core blocks the budget now excludes
}

// SearchResult is one search hit (SPEC §10).
type SearchResult struct {
	Kind            string  `json:"kind"` // "topic" or "source"
	Path            string  `json:"path"`
	Anchor          string  `json:"anchor"`
	Ref             string  `json:"ref"`
	Score           float64 `json:"score"`
	Time            string  `json:"time"`
	Snippet         string  `json:"snippet"`
	SnippetComplete bool    `json:"snippet_complete"`
	SpeakerID       *string `json:"speaker_id,omitempty"`
	SpeakerDisplay  *string `json:"speaker_display,omitempty"`
	SpeakerLabel    *string `json:"speaker_label,omitempty"`
	SpeakerTrusted  *bool   `json:"speaker_trusted,omitempty"`
	// Explanation says which fields, terms and boosts gave the score (and,
	// for a fused ranking, where the hit ranked in each list); only when
	// SearchQuery.Explain asked for it.
	Explanation *index.Explanation `json:"explanation,omitempty"`
}

// WriterStatus is the best-effort writer status file (SPEC §7).
type WriterStatus struct {
	LastSuccessAt string         `json:"last_success_at"`
	LastFailure   *WriterFailure `json:"last_failure"`
	PendingTurns  int            `json:"pending_turns"`
	// FailedSessions are the sessions whose last write failed for good (a
	// rejected or invalid batch, a damaged archive) while the writer went
	// on with the others; each run tries them again. Never nil when read.
	FailedSessions []WriterSessionFailure `json:"failed_sessions"`
}

// WriterSessionFailure is one session the writer could not write.
type WriterSessionFailure struct {
	Provider string       `json:"provider"`
	Session  string       `json:"session"`
	Code     errcode.Code `json:"code"`
	Message  string       `json:"message"`
	At       string       `json:"at"`
}

// WriterFailure is the last failure the writer recorded.
type WriterFailure struct {
	Code      errcode.Code `json:"code"`
	Retryable bool         `json:"retryable"`
	Message   string       `json:"message"`
	At        string       `json:"at"`
}

// IndexState describes the search index.
type IndexState struct {
	Documents uint64 `json:"documents"`
	Format    int    `json:"format"`
	Fresh     bool   `json:"fresh"`
}

// Status is `status` (SPEC §12).
type Status struct {
	WorkspaceID string       `json:"workspace_id"`
	Revision    int64        `json:"revision"`
	Backend     string       `json:"backend"`
	Model       string       `json:"model"`
	Writer      WriterStatus `json:"writer"`
	Hook        HookStatus   `json:"hook"`
	Core        CoreReport   `json:"core"`
	Index       IndexState   `json:"index"`
	Lock        LockState    `json:"lock"`

	LockHolder string `json:"-"` // who holds write.lock right now, "" if free
	StateDir   string `json:"-"`
}

// LockState is the write lock as status probes it: held or free, and who
// holds it ("pid 4242 scriptorium update since 2026-…").
type LockState struct {
	Held   bool   `json:"held"`
	Holder string `json:"holder,omitempty"`
}

// TopicSummary is one topic file in the topic tree.
type TopicSummary struct {
	Path    string `json:"path"`
	Blocks  int    `json:"blocks"`
	Pending int    `json:"pending"`
}

// TopicView is one topic file with its blocks in file order.
type TopicView struct {
	Path   string      `json:"path"`
	Blocks []BlockView `json:"blocks"`
	Raw    string      `json:"-"` // the file's bytes
}

// ArchiveView is one source archive, for the drill-down pane.
type ArchiveView struct {
	Path    string       `json:"path"`
	Legacy  bool         `json:"legacy"`
	Sources []SourceView `json:"sources"`
	Problem string       `json:"problem,omitempty"` // why parsing stopped early, if it did
}

// CoreBlock is one block of topics/core.md with its render outcome.
type CoreBlock struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Tokens int    `json:"tokens"`
	State  string `json:"state"` // "included", "excluded" or "pending"
	// Pinned blocks sit in topics/core.md's pinned section (rendered first).
	Pinned bool `json:"pinned,omitempty"`
	// Footnotes are the block's citations, for drill-down to the sources.
	Footnotes []FootnoteView `json:"footnotes,omitempty"`
}

// CoreView is the core pane's data: the report plus every block in file order.
type CoreView struct {
	Report CoreReport  `json:"report"`
	Blocks []CoreBlock `json:"blocks"`
}

// SearchQuery is a search request (SPEC §10).
type SearchQuery struct {
	Text    string
	Speaker string
	Path    string
	Since   string // YYYY-MM-DD or RFC 3339
	Until   string
	Sort    string // "score" (default) or "date"
	Limit   int    // default 10
	Method  string // "bm25", "hybrid" (the default when [embeddings] is configured) or "embedding"
	Explain bool   // fill SearchResult.Explanation
}

// PromoteResult is the outcome of promote.
type PromoteResult struct {
	Promoted  []string `json:"promoted"`
	Distilled []string `json:"distilled"`

	Revision int64    `json:"-"` // the promotion's revision, 0 when nothing was promoted
	Topics   []string `json:"-"` // the topic files the distillation wrote
}

// RevertResult is what a revert (engine/revert) did, or would do on a dry
// run.
type RevertResult struct {
	// Revision is the revert's own revision; 0 on a dry run.
	Revision int64 `json:"revision"`
	// Reverts is the revision undone.
	Reverts int64      `json:"reverts"`
	DryRun  bool       `json:"dry_run"`
	Changed []FileDiff `json:"changed"`
}
