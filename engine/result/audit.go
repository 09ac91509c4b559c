package result

// The audit trail's types (engine/audit reads it).

// AuditEntry is one thing that happened to memory, for `audit`: an install
// (its history kind: write, update, sleep, promote, backfill, revert,
// migration, forget), a rejection ("reject"), a promotion without an
// install of its own ("promote", revision 0), a sleep pass that changed
// nothing ("sleep", revision 0) or a declined proposal
// ("proposal_declined"). A source's own story (AuditQuery.Source) adds
// "received": the install that archived it.
type AuditEntry struct {
	Time     string   `json:"time"`
	Kind     string   `json:"kind"`
	Actor    string   `json:"actor"`    // tier
	Revision int64    `json:"revision"` // the install's revision; 0 when nothing was installed
	Sources  []string `json:"sources"`  // source-ids concerned
	Changed  []string `json:"changed"`  // files changed (for a declined proposal: the files it would have changed)
	Detail   string   `json:"detail"`   // one line in words

	// Diffs are the changed files' unified diffs, in Changed order (none
	// for a declined proposal: its diff left with it).
	Diffs []FileDiff `json:"-"`
	// Records locate the Sources still in an archive, for drill-down.
	Records []CitationView `json:"-"`
}

// AuditQuery narrows `audit`.
type AuditQuery struct {
	// Source, when set, is a source-id: only its story.
	Source string
	// Since is YYYY-MM-DD (from that day, UTC) or an RFC 3339 time.
	Since string
	// Limit keeps the newest entries only; 0 keeps all.
	Limit int
}

// AuditReport is `audit`: the entries newest first and, for a source's
// story, where the source stands now.
type AuditReport struct {
	Entries []AuditEntry `json:"entries"`
	Source  *SourceStory `json:"source,omitempty"`
}

// SourceStory is where one source stands now, for `audit --source`.
type SourceStory struct {
	Ref            string `json:"ref"`
	Path           string `json:"path"`
	Anchor         string `json:"anchor"`
	Time           string `json:"time"`
	SpeakerLabel   string `json:"speaker_label"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerTrusted bool   `json:"speaker_trusted"` // the speaker's identity, not the record's trust
	Trust          string `json:"trust"`           // the record: "trusted" or "pending"
	// State says why: "trusted" (never pending), "promoted", "pending"
	// (awaiting review), "rejected" (pending, out of the queue), "forgotten"
	// (a tombstone: the owner forgot it) or "missing" (no archive holds it).
	State   string     `json:"state"`
	Reason  string     `json:"reason,omitempty"` // the rejection's reason
	CitedBy []BlockRef `json:"cited_by"`
}

// BlockRef names a topic block.
type BlockRef struct {
	Path  string `json:"path"`
	Block string `json:"block"` // 8 hex digits, no ^
}
