package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"scriptorium/trust"
)

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

// Audit reads the audit trail newest first: every install with its
// actor, revision, sources and changed files; every promotion and
// rejection; every sleep pass, empty and rejected ones included; every
// declined proposal. It reads state.db and the workspace and changes
// nothing.
func (e *Engine) Audit(ctx context.Context, q AuditQuery) (AuditReport, error) {
	rep := AuditReport{Entries: []AuditEntry{}}
	if err := e.gate(trust.OpAudit); err != nil {
		return rep, err
	}
	var since string
	if q.Since != "" {
		t, err := sinceTime(q.Since)
		if err != nil {
			return rep, err
		}
		since = t.UTC().Format(time.RFC3339)
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return rep, err
	}
	entries, err := e.auditEntries(ctx)
	if err != nil {
		return rep, err
	}
	if q.Source != "" {
		rejected, err := e.rejections(ctx)
		if err != nil {
			return rep, err
		}
		story, st := sourceStory(s, entries, rejected, q.Source)
		if _, ok := s.sources[q.Source]; !ok && len(story) == 0 {
			return rep, Errorf(CodeNotFound, "no source with source-id %s, and the audit trail never mentions one", q.Source)
		}
		entries, rep.Source = story, st
	}
	sortEntries(entries)
	for _, en := range entries {
		if since != "" && en.Time < since {
			continue
		}
		en.Records = s.records(en.Sources)
		rep.Entries = append(rep.Entries, en)
		if q.Limit > 0 && len(rep.Entries) == q.Limit {
			break
		}
	}
	return rep, nil
}

// sortEntries orders entries newest first; within a second, the higher
// revision first, then by kind so the order is stable.
func sortEntries(es []AuditEntry) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		if a.Revision != b.Revision {
			return a.Revision > b.Revision
		}
		return a.Kind < b.Kind
	})
}

// auditEntries reads every entry, unsorted.
func (e *Engine) auditEntries(ctx context.Context) ([]AuditEntry, error) {
	installs, err := e.installEntries(ctx)
	if err != nil {
		return nil, err
	}
	out := installs
	passes, err := e.passes(ctx)
	if err != nil {
		return nil, err
	}
	byRev := map[int64]int{}
	for i, en := range out {
		byRev[en.Revision] = i
	}
	for _, p := range passes {
		if i, ok := byRev[p.Revision]; ok && p.Revision > 0 {
			out[i].Detail = p.Summary() // the install is the pass: say so in its words
			continue
		}
		out = append(out, AuditEntry{Time: p.Time, Kind: "sleep", Actor: string(trust.Owner),
			Sources: []string{}, Changed: []string{}, Detail: p.Summary()})
	}
	promos, err := e.promotionEntries(ctx, out)
	if err != nil {
		return nil, err
	}
	out = append(out, promos...)
	rejs, err := e.rejectionEntries(ctx)
	if err != nil {
		return nil, err
	}
	out = append(out, rejs...)
	declined, err := e.declinedEntries(ctx)
	if err != nil {
		return nil, err
	}
	return append(out, declined...), nil
}

// sourceIDLine finds the source-ids of records an archive diff adds.
var sourceIDLine = regexp.MustCompile(`(?m)^\+<!-- source-id:(.+) -->$`)

// installEntries reads the history table.
func (e *Engine) installEntries(ctx context.Context) ([]AuditEntry, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT revision, time, actor, kind, changed, diffs, reverts, sources FROM history`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read history")
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var en AuditEntry
		var changed, diffs, sources string
		var reverts int64
		if err := rows.Scan(&en.Revision, &en.Time, &en.Actor, &en.Kind, &changed, &diffs, &reverts, &sources); err != nil {
			return nil, Wrap(CodeIO, err, "read history")
		}
		var d map[string]string
		_ = json.Unmarshal([]byte(changed), &en.Changed)
		_ = json.Unmarshal([]byte(diffs), &d)
		_ = json.Unmarshal([]byte(sources), &en.Sources)
		en.Changed = nonNil(en.Changed)
		for _, p := range en.Changed {
			en.Diffs = append(en.Diffs, FileDiff{Path: p, Diff: d[p]})
		}
		if len(en.Sources) == 0 {
			// Rows from before the sources column: the records an archive
			// diff adds are still known.
			en.Sources = archivedInDiffs(en.Diffs)
		}
		en.Sources = nonNil(en.Sources)
		en.Detail = installDetail(en, reverts)
		out = append(out, en)
	}
	return out, rows.Err()
}

// archivedInDiffs lists the source-ids whose frames the archive diffs add.
func archivedInDiffs(diffs []FileDiff) []string {
	var out []string
	for _, d := range diffs {
		if !strings.HasPrefix(d.Path, "sources/") {
			continue
		}
		for _, m := range sourceIDLine.FindAllStringSubmatch(d.Diff, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}

// installDetail says in words what an install did.
func installDetail(en AuditEntry, reverts int64) string {
	var topics, archives int
	for _, p := range en.Changed {
		switch {
		case strings.HasPrefix(p, "topics/"):
			topics++
		case strings.HasPrefix(p, "sources/"):
			archives++
		}
	}
	files := fmt.Sprintf("%s, %s", plural(topics, "topic file"), plural(archives, "archive"))
	switch en.Kind {
	case "write":
		return fmt.Sprintf("writer batch: %s concerned; %s changed", plural(len(en.Sources), "source"), files)
	case "backfill":
		return fmt.Sprintf("backfill distilled uncited trusted sources: %s; %s changed", plural(len(en.Sources), "source"), files)
	case "promote":
		if topics == 0 {
			return fmt.Sprintf("promoted %s (topics cite them already: nothing distilled)", plural(len(en.Sources), "source"))
		}
		return fmt.Sprintf("promoted %s and distilled them: %s changed", plural(len(en.Sources), "source"), files)
	case "revert":
		return fmt.Sprintf("reverted revision %d: %s changed", reverts, files)
	case "update":
		return "transaction: " + files + " changed"
	case "migration":
		return "migration: " + files + " changed"
	case "sleep":
		return "sleep pass: " + files + " changed"
	case "edit", "delete", "move":
		if d := blockDetail(en); d != "" {
			return d
		}
	case "forget":
		// A forget keeps no diffs: they would hold what it removed.
		return fmt.Sprintf("forgot %s for good (records now tombstones): %s changed",
			plural(len(en.Sources), "source"), files)
	}
	return en.Kind + ": " + files + " changed"
}

// diffBlockID matches a diff line of a block's last line: its id.
var diffBlockID = regexp.MustCompile(`(?:^|\s)\^([0-9a-f]{8})\s*$`)

// blockDetail names the block an edit, delete or move was about, from its
// diffs: the id whose line changed within a file (edit), left its file
// (delete), or left one file for another (move; the blocks whose links
// followed it changed in place).
func blockDetail(en AuditEntry) string {
	type seen struct{ removed, added []string }
	ids := map[string]*seen{}
	var order []string
	for _, d := range en.Diffs {
		hunks := false
		for _, line := range strings.Split(d.Diff, "\n") {
			hunks = hunks || strings.HasPrefix(line, "@@")
			if !hunks || line == "" || (line[0] != '-' && line[0] != '+') {
				continue
			}
			m := diffBlockID.FindStringSubmatch(line[1:])
			if m == nil {
				continue
			}
			s := ids[m[1]]
			if s == nil {
				s = &seen{}
				ids[m[1]] = s
				order = append(order, m[1])
			}
			if line[0] == '-' {
				s.removed = append(s.removed, d.Path)
			} else {
				s.added = append(s.added, d.Path)
			}
		}
	}
	for _, id := range order {
		s := ids[id]
		switch {
		case en.Kind == "edit" && len(s.removed) > 0 && slices.Contains(s.added, s.removed[0]):
			return fmt.Sprintf("edited ^%s in %s", id, s.removed[0])
		case en.Kind == "delete" && len(s.removed) > 0 && len(s.added) == 0:
			return fmt.Sprintf("deleted ^%s from %s", id, s.removed[0])
		case en.Kind == "move" && len(s.removed) > 0 && len(s.added) > 0 && s.added[0] != s.removed[0]:
			return fmt.Sprintf("moved ^%s from %s to %s (%s changed)", id, s.removed[0], s.added[0], plural(len(en.Changed), "file"))
		}
	}
	return ""
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// promotionEntries attaches the ledger's promotions to the promote
// installs that list them and returns the rest as entries of their own
// (revision 0): a promotion whose distillation failed. Promote installs
// from before installs recorded their sources name none; such a row claims
// the promotions made up to a minute before it. Every promote entry says
// which rejection it reversed.
func (e *Engine) promotionEntries(ctx context.Context, installs []AuditEntry) ([]AuditEntry, error) {
	ps, err := e.ledger.All(ctx)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read promotion ledger")
	}
	claimed := map[string]int{}
	var legacy []int
	for i, en := range installs {
		if en.Kind != "promote" {
			continue
		}
		if len(en.Sources) == 0 {
			legacy = append(legacy, i)
		}
		for _, id := range en.Sources {
			claimed[id] = i
		}
	}
	owner := make([]int, len(ps)) // the install index each promotion belongs to, -1 for none
	for k, p := range ps {
		i, ok := claimed[p.SourceID]
		if !ok {
			i, ok = promoteRowAfter(installs, legacy, p.PromotedAt)
			if ok {
				installs[i].Sources = append(installs[i].Sources, p.SourceID)
			}
		}
		owner[k] = -1
		if ok {
			owner[k] = i
		}
	}
	for _, i := range legacy {
		installs[i].Detail = installDetail(installs[i], 0)
	}
	var out []AuditEntry
	for k, p := range ps {
		note := ""
		if p.PreviousState == "rejected" {
			note = "; reverses the rejection of " + p.SourceID
		}
		if i := owner[k]; i >= 0 {
			installs[i].Detail += note
			continue
		}
		out = append(out, AuditEntry{Time: formatTime(p.PromotedAt), Kind: "promote", Actor: string(p.PromotedBy),
			Sources: []string{p.SourceID}, Changed: []string{},
			Detail: "promoted by the owner; no install recorded (the distillation failed: backfill distils it)" + note})
	}
	return out, nil
}

// promoteRowAfter finds, among the promote installs at idx, the first one
// at most a minute after a promotion.
func promoteRowAfter(installs []AuditEntry, idx []int, at time.Time) (int, bool) {
	for _, i := range idx {
		t, err := time.Parse(time.RFC3339, installs[i].Time)
		if err == nil && !t.Before(at.Truncate(time.Second)) && t.Sub(at) <= time.Minute {
			return i, true
		}
	}
	return 0, false
}

// rejectionEntries reads the rejection log; the rejections of one call
// (same time, same reason) are one entry.
func (e *Engine) rejectionEntries(ctx context.Context) ([]AuditEntry, error) {
	rs, err := e.ledger.Rejections(ctx)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read rejections")
	}
	var out []AuditEntry
	for i, r := range rs {
		if i > 0 && rs[i-1].RejectedAt.Equal(r.RejectedAt) && rs[i-1].Reason == r.Reason {
			last := &out[len(out)-1]
			last.Sources = append(last.Sources, r.SourceID)
			last.Detail = rejectDetail(len(last.Sources), r.Reason)
			continue
		}
		out = append(out, AuditEntry{Time: formatTime(r.RejectedAt), Kind: "reject", Actor: string(r.RejectedBy),
			Sources: []string{r.SourceID}, Changed: []string{}, Detail: rejectDetail(1, r.Reason)})
	}
	return out, nil
}

func rejectDetail(n int, reason string) string {
	s := "rejected " + plural(n, "pending source") + " (they stay untrusted; promote reverses it)"
	if reason == "" {
		return s + "; no reason given"
	}
	return s + "; reason: " + reason
}

// declinedEntries reads the proposal_declined events.
func (e *Engine) declinedEntries(ctx context.Context) ([]AuditEntry, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT time, data FROM events WHERE kind = 'proposal_declined'`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read events")
	}
	defer rows.Close()
	var out []AuditEntry
	for rows.Next() {
		var at, data string
		if err := rows.Scan(&at, &data); err != nil {
			return nil, Wrap(CodeIO, err, "read events")
		}
		var ev struct {
			ID           string   `json:"id"`
			Kind         string   `json:"kind"`
			BaseRevision int64    `json:"base_revision"`
			Paths        []string `json:"paths"`
			Actor        string   `json:"actor"`
		}
		_ = json.Unmarshal([]byte(data), &ev)
		if ev.Actor == "" {
			ev.Actor = string(trust.Owner)
		}
		out = append(out, AuditEntry{Time: at, Kind: "proposal_declined", Actor: ev.Actor, Sources: []string{},
			Changed: nonNil(ev.Paths), Detail: fmt.Sprintf("declined %s proposal %s (base revision %d): %s not installed",
				ev.Kind, ev.ID, ev.BaseRevision, plural(len(ev.Paths), "file"))})
	}
	return out, rows.Err()
}

// records locates source-ids in the workspace, skipping any that no
// archive holds any more.
func (s *snapshot) records(ids []string) []CitationView {
	var out []CitationView
	for _, id := range ids {
		if src, ok := s.sources[id]; ok {
			out = append(out, CitationView{Ref: id, Path: src.view.Path, Anchor: src.view.Anchor})
		}
	}
	return out
}
