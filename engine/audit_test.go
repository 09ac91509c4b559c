package engine_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/forget"
	"scriptorium/engine/passlog"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
)

// auditWorkspace runs one of everything the audit reports on the valid
// fixture: an update, a writer batch archiving a pending source, its
// rejection, an empty sleep pass, a declined proposal, the promotion of
// the rejected source and of a cited one.
func auditWorkspace(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	e := ftOpen(t, ftFixture(t, "valid"), tickClock())
	ctx := context.Background()
	if _, err := e.Update(ctx, ftTx(0, ftCreate("topics/a.md", ftCiting("a0000001", "e-a000000001", "Copper moves.")))); err != nil {
		t.Fatal(err)
	}
	path := "sources/telegram/_v2/g.md"
	arch, _, err := archive.Append(nil, []archive.Record{{SourceID: newSrc, SpeakerID: "u7", SpeakerDisplay: "Zed",
		Time: ftClock(), Content: "Friday deploys are cancelled.", Pending: true}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Install(ctx, engine.Change{Kind: "write", Archives: map[string][]byte{path: arch}}); err != nil {
		t.Fatal(err)
	}
	if _, err := review.Reject(ctx, e, []string{newSrc}, "rumour"); err != nil {
		t.Fatal(err)
	}
	if err := passlog.Record(ctx, e, &result.PassReport{Model: "offline"}); err != nil {
		t.Fatal(err)
	}
	declined := `{"actor":"owner","base_revision":2,"id":"p-1","kind":"sleep","paths":["topics/a.md"]}`
	if err := e.Records().AddEvent(ctx, e.Now().UTC().Format(time.RFC3339), "proposal_declined", []byte(declined)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Promote(ctx, []string{newSrc}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Promote(ctx, []string{srcM3}); err != nil {
		t.Fatal(err)
	}
	return e, path
}

const newSrc = "telegram/g/m1"

func TestAudit_Entries(t *testing.T) {
	e, path := auditWorkspace(t)
	ctx := context.Background()
	rep, err := audit.Audit(ctx, e, result.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, en := range rep.Entries {
		kinds = append(kinds, en.Kind)
	}
	want := []string{"promote", "promote", "proposal_declined", "sleep", "reject", "write", "update"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds newest first = %v, want %v", kinds, want)
	}
	byKind := func(i int) result.AuditEntry { return rep.Entries[i] }
	if en := byKind(0); en.Revision != 4 || !slices.Equal(en.Sources, []string{srcM3}) || len(en.Changed) != 0 ||
		!strings.Contains(en.Detail, "nothing distilled") {
		t.Errorf("promote of a cited source = %+v", en)
	}
	if en := byKind(1); en.Revision != 3 || !slices.Contains(en.Sources, newSrc) || len(en.Changed) == 0 ||
		len(en.Diffs) != len(en.Changed) || !strings.Contains(en.Detail, "reverses the rejection of "+newSrc) {
		t.Errorf("promote of the rejected source = %+v", en)
	}
	if en := byKind(2); en.Revision != 0 || !slices.Equal(en.Changed, []string{"topics/a.md"}) || !strings.Contains(en.Detail, "p-1") {
		t.Errorf("declined proposal = %+v", en)
	}
	if en := byKind(3); en.Revision != 0 || !strings.Contains(en.Detail, "no changes") {
		t.Errorf("empty pass = %+v", en)
	}
	if en := byKind(4); en.Actor != "owner" || !slices.Equal(en.Sources, []string{newSrc}) || !strings.Contains(en.Detail, "reason: rumour") ||
		len(en.Records) != 1 || en.Records[0].Path != path || en.Records[0].Anchor != archive.AnchorFor(newSrc) {
		t.Errorf("reject = %+v", en)
	}
	if en := byKind(5); en.Revision != 2 || !slices.Equal(en.Sources, []string{newSrc}) || !slices.Equal(en.Changed, []string{path}) ||
		!strings.Contains(en.Diffs[0].Diff, "+<!-- source-id:"+newSrc+" -->") {
		t.Errorf("writer batch = %+v", en)
	}
	if en := byKind(6); en.Revision != 1 || !slices.Equal(en.Sources, []string{srcM1}) || en.Actor != "owner" {
		t.Errorf("update = %+v (it newly cites %s)", en, srcM1)
	}
	for _, en := range rep.Entries {
		if en.Time == "" || en.Sources == nil || en.Changed == nil || en.Detail == "" {
			t.Errorf("entry with empty fields: %+v", en)
		}
		if _, err := time.Parse(time.RFC3339, en.Time); err != nil {
			t.Errorf("entry time %q: %v", en.Time, err)
		}
	}

	// --since keeps the entries at or after the bound; a bad bound is
	// INVALID_ARGUMENT.
	since, err := audit.Audit(ctx, e, result.AuditQuery{Since: rep.Entries[2].Time})
	if err != nil || len(since.Entries) != 3 {
		t.Errorf("since %s: %d entries, %v; want 3", rep.Entries[2].Time, len(since.Entries), err)
	}
	if _, err := audit.Audit(ctx, e, result.AuditQuery{Since: "yesterday"}); ftCode(err) != errcode.InvalidArgument {
		t.Errorf("since yesterday: %v", err)
	}
	if all, _ := audit.Audit(ctx, e, result.AuditQuery{Since: "2026-08-11"}); len(all.Entries) != len(rep.Entries) {
		t.Errorf("since the fixture's day: %d entries, want %d", len(all.Entries), len(rep.Entries))
	}
}

// TestAudit_SourceStory: a source's story is its arrival, rejection and
// promotion, and where it stands now.
func TestAudit_SourceStory(t *testing.T) {
	e, path := auditWorkspace(t)
	ctx := context.Background()
	rep, err := audit.Audit(ctx, e, result.AuditQuery{Source: newSrc})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, en := range rep.Entries {
		kinds = append(kinds, en.Kind)
	}
	if want := []string{"promote", "reject", "received"}; !slices.Equal(kinds, want) {
		t.Fatalf("story kinds = %v, want %v", kinds, want)
	}
	rec := rep.Entries[2]
	if rec.Revision != 2 || !strings.Contains(rec.Detail, "archived by a write install") || !strings.Contains(rec.Detail, "pending review") {
		t.Errorf("received = %+v", rec)
	}
	st := rep.Source
	if st == nil || st.State != "promoted" || st.Trust != "trusted" || st.Path != path || !st.SpeakerTrusted ||
		st.SpeakerLabel != "Zed (u7)" || len(st.CitedBy) != 1 {
		t.Fatalf("story source = %+v", st)
	}

	// A fixture source no install archived is received at its own time.
	rep, err = audit.Audit(ctx, e, result.AuditQuery{Source: srcM5})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) != 1 || rep.Entries[0].Kind != "received" || rep.Entries[0].Revision != 0 ||
		rep.Entries[0].Time != "2026-08-09T08:00:00Z" || rep.Source.State != "pending" || len(rep.Source.CitedBy) != 0 {
		t.Errorf("story of %s = %+v %+v", srcM5, rep.Entries, rep.Source)
	}
	rep, err = audit.Audit(ctx, e, result.AuditQuery{Source: srcM3})
	if err != nil || rep.Source.State != "promoted" || len(rep.Source.CitedBy) != 1 || rep.Source.CitedBy[0].Block != "deadbeef" {
		t.Errorf("story of %s = %+v, %v", srcM3, rep.Source, err)
	}
	if _, err := audit.Audit(ctx, e, result.AuditQuery{Source: "nope/nope/nope"}); ftCode(err) != errcode.NotFound {
		t.Errorf("story of an unknown source: %v", err)
	}
}

// TestAudit_RejectedStory: a rejected source's story names the reason.
func TestAudit_RejectedStory(t *testing.T) {
	e := ftOpen(t, ftFixture(t, "valid"), tickClock())
	ctx := context.Background()
	if _, err := review.Reject(ctx, e, []string{srcM5}, "spam"); err != nil {
		t.Fatal(err)
	}
	rep, err := audit.Audit(ctx, e, result.AuditQuery{Source: srcM5})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Source.State != "rejected" || rep.Source.Reason != "spam" || rep.Source.Trust != "pending" ||
		len(rep.Entries) != 2 || rep.Entries[0].Kind != "reject" {
		t.Errorf("story = %+v %+v", rep.Source, rep.Entries)
	}
}

// TestAudit_Forget: a forget is in the trail with its sources, and the
// forgotten source's story ends there.
func TestAudit_Forget(t *testing.T) {
	e := ftOpen(t, ftFixture(t, "valid"), tickClock())
	ctx := context.Background()
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{srcM5}}, false); err != nil {
		t.Fatal(err)
	}
	rep, err := audit.Audit(ctx, e, result.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Entries) == 0 || rep.Entries[0].Kind != "forget" || !slices.Contains(rep.Entries[0].Sources, srcM5) ||
		!strings.Contains(rep.Entries[0].Detail, "forgot 1 source") {
		t.Fatalf("trail after a forget = %+v", rep.Entries)
	}
	story, err := audit.Audit(ctx, e, result.AuditQuery{Source: srcM5})
	if err != nil {
		t.Fatal(err)
	}
	if story.Source.State != "forgotten" || story.Entries[0].Kind != "forget" {
		t.Errorf("story of a forgotten source = %+v %+v", story.Source, story.Entries)
	}
}
