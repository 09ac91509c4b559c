// Package audit reads the audit trail (`audit`): every install with its
// actor, revision, sources and changed files from state.db's history
// (engine/records), every promotion and rejection from the trust ledger,
// every sleep pass and every declined proposal; and one source's story.
// A service on the core's exported API: it changes nothing.
package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"

	"scriptorium/trust"
)

// Audit reads the audit trail newest first: every install with its
// actor, revision, sources and changed files; every promotion and
// rejection; every sleep pass, empty and rejected ones included; every
// declined proposal. It reads state.db and the workspace and changes
// nothing.
func Audit(ctx context.Context, e *engine.Engine, q result.AuditQuery) (result.AuditReport, error) {
	rep := result.AuditReport{Entries: []result.AuditEntry{}}
	if err := e.Authorize(trust.OpAudit); err != nil {
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
	v, err := e.View(ctx)
	if err != nil {
		return rep, err
	}
	entries, err := auditEntries(ctx, e)
	if err != nil {
		return rep, err
	}
	if q.Source != "" {
		rejected, err := rejections(ctx, e)
		if err != nil {
			return rep, err
		}
		story, st := sourceStory(v, entries, rejected, q.Source)
		if _, ok := v.Source(q.Source); !ok && len(story) == 0 {
			return rep, errcode.Errorf(errcode.NotFound, "no source with source-id %s, and the audit trail never mentions one", q.Source)
		}
		entries, rep.Source = story, st
	}
	sortEntries(entries)
	for _, en := range entries {
		if since != "" && en.Time < since {
			continue
		}
		en.Records = sourceRecords(v, en.Sources)
		rep.Entries = append(rep.Entries, en)
		if q.Limit > 0 && len(rep.Entries) == q.Limit {
			break
		}
	}
	return rep, nil
}

// sortEntries orders entries newest first; within a second, the higher
// revision first, then by kind so the order is stable.
func sortEntries(es []result.AuditEntry) {
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
func auditEntries(ctx context.Context, e *engine.Engine) ([]result.AuditEntry, error) {
	installs, err := installEntries(ctx, e.Records())
	if err != nil {
		return nil, err
	}
	out := installs
	passes, err := e.Records().Passes(ctx)
	if err != nil {
		return nil, errcode.As(err)
	}
	byRev := map[int64]int{}
	for i, en := range out {
		byRev[en.Revision] = i
	}
	for _, p := range passes {
		sum := result.PassReport{Pass: p.ID, Model: p.Model, Changed: p.Changed, Revision: p.Revision, Error: p.Error}.Summary()
		if i, ok := byRev[p.Revision]; ok && p.Revision > 0 {
			out[i].Detail = sum // the install is the pass: say so in its words
			continue
		}
		out = append(out, result.AuditEntry{Time: p.Time, Kind: "sleep", Actor: string(trust.Owner),
			Sources: []string{}, Changed: []string{}, Detail: sum})
	}
	promos, err := promotionEntries(ctx, e.Records(), out)
	if err != nil {
		return nil, err
	}
	out = append(out, promos...)
	rejs, err := rejectionEntries(ctx, e.Records())
	if err != nil {
		return nil, err
	}
	out = append(out, rejs...)
	declined, err := declinedEntries(ctx, e.Records())
	if err != nil {
		return nil, err
	}
	return append(out, declined...), nil
}

// sourceIDLine finds the source-ids of records an archive diff adds.
var sourceIDLine = regexp.MustCompile(`(?m)^\+<!-- source-id:(.+) -->$`)

// installEntries reads the history table.
func installEntries(ctx context.Context, rec *records.Store) ([]result.AuditEntry, error) {
	rows, err := rec.Histories(ctx)
	if err != nil {
		return nil, errcode.As(err)
	}
	out := make([]result.AuditEntry, 0, len(rows))
	for _, h := range rows {
		en := result.AuditEntry{Revision: h.Revision, Time: h.Time, Actor: h.Actor, Kind: h.Kind, Changed: h.Changed, Sources: h.Sources}
		for _, p := range en.Changed {
			en.Diffs = append(en.Diffs, result.FileDiff{Path: p, Diff: h.Diffs[p]})
		}
		if len(en.Sources) == 0 {
			// Rows from before the sources column: the records an archive
			// diff adds are still known.
			en.Sources = records.NonNil(archivedInDiffs(en.Diffs))
		}
		en.Detail = installDetail(en, h.Reverts)
		out = append(out, en)
	}
	return out, nil
}

// archivedInDiffs lists the source-ids whose frames the archive diffs add.
func archivedInDiffs(diffs []result.FileDiff) []string {
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
func installDetail(en result.AuditEntry, reverts int64) string {
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
func blockDetail(en result.AuditEntry) string {
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
	if en.Kind == "move" {
		// A move of several blocks (curate.MoveAll) names how many went
		// where the first did.
		moved, first := 0, ""
		for _, id := range order {
			s := ids[id]
			if len(s.removed) > 0 && len(s.added) > 0 && s.added[0] != s.removed[0] {
				if first == "" {
					first = id
				}
				if s.removed[0] == ids[first].removed[0] && s.added[0] == ids[first].added[0] {
					moved++
				}
			}
		}
		if moved > 1 {
			s := ids[first]
			return fmt.Sprintf("moved %d blocks from %s to %s (%s changed)", moved, s.removed[0], s.added[0], plural(len(en.Changed), "file"))
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
func promotionEntries(ctx context.Context, ledger *records.Store, installs []result.AuditEntry) ([]result.AuditEntry, error) {
	ps, err := ledger.Promotions(ctx)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read promotion ledger")
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
	var out []result.AuditEntry
	for k, p := range ps {
		note := ""
		if p.PreviousState == "rejected" {
			note = "; reverses the rejection of " + p.SourceID
		}
		if i := owner[k]; i >= 0 {
			installs[i].Detail += note
			continue
		}
		out = append(out, result.AuditEntry{Time: formatTime(p.PromotedAt), Kind: "promote", Actor: string(p.PromotedBy),
			Sources: []string{p.SourceID}, Changed: []string{},
			Detail: "promoted by the owner; no install recorded (the distillation failed: backfill distils it)" + note})
	}
	return out, nil
}

// promoteRowAfter finds, among the promote installs at idx, the first one
// at most a minute after a promotion.
func promoteRowAfter(installs []result.AuditEntry, idx []int, at time.Time) (int, bool) {
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
func rejectionEntries(ctx context.Context, ledger *records.Store) ([]result.AuditEntry, error) {
	rs, err := ledger.Rejections(ctx)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read rejections")
	}
	var out []result.AuditEntry
	for i, r := range rs {
		if i > 0 && rs[i-1].RejectedAt.Equal(r.RejectedAt) && rs[i-1].Reason == r.Reason {
			last := &out[len(out)-1]
			last.Sources = append(last.Sources, r.SourceID)
			last.Detail = rejectDetail(len(last.Sources), r.Reason)
			continue
		}
		out = append(out, result.AuditEntry{Time: formatTime(r.RejectedAt), Kind: "reject", Actor: string(r.RejectedBy),
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
func declinedEntries(ctx context.Context, rec *records.Store) ([]result.AuditEntry, error) {
	rows, err := rec.Events(ctx, "proposal_declined")
	if err != nil {
		return nil, errcode.As(err)
	}
	var out []result.AuditEntry
	for _, row := range rows {
		at := row.Time
		var ev struct {
			ID           string   `json:"id"`
			Kind         string   `json:"kind"`
			BaseRevision int64    `json:"base_revision"`
			Paths        []string `json:"paths"`
			Actor        string   `json:"actor"`
		}
		_ = json.Unmarshal([]byte(row.Data), &ev)
		if ev.Actor == "" {
			ev.Actor = string(trust.Owner)
		}
		out = append(out, result.AuditEntry{Time: at, Kind: "proposal_declined", Actor: ev.Actor, Sources: []string{},
			Changed: records.NonNil(ev.Paths), Detail: fmt.Sprintf("declined %s proposal %s (base revision %d): %s not installed",
				ev.Kind, ev.ID, ev.BaseRevision, plural(len(ev.Paths), "file"))})
	}
	return out, nil
}

// sourceRecords locates source-ids in the workspace, skipping any that no
// archive holds any more.
func sourceRecords(v *engine.View, ids []string) []result.CitationView {
	var out []result.CitationView
	for _, id := range ids {
		if src, ok := v.Source(id); ok {
			out = append(out, result.CitationView{Ref: id, Path: src.Path, Anchor: src.Anchor})
		}
	}
	return out
}

// rejections is the rejection log by source-id.
func rejections(ctx context.Context, e *engine.Engine) (map[string]trust.Rejection, error) {
	rs, err := e.Records().Rejections(ctx)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read rejections")
	}
	out := make(map[string]trust.Rejection, len(rs))
	for _, r := range rs {
		out[r.SourceID] = r
	}
	return out, nil
}

// sinceTime parses an audit --since bound: YYYY-MM-DD (from the start of
// that day, UTC) or an RFC 3339 time.
func sinceTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, errcode.Errorf(errcode.InvalidArgument, "since %q: want YYYY-MM-DD or an RFC 3339 time", s)
	}
	return t, nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
