package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/workspace/archive"
)

// wtLegacy is a frozen legacy archive: one unframed user record whose body
// starts with a speaker hint, which is text and never an identity.
const (
	wtLegacy    = "[2026-06-01T10:00:00Z] user: [张三 (u123)] I moved to Lisbon in 2021 to breed llamas.\n"
	wtLegacyRef = "openprogram/oldthread/legacy-L1"
)

// wtBackfillState is a workspace whose archive holds 33 trusted records of
// about 1000 tokens each (so backfill needs three batches: 15 + 15 + 3 once
// r00, already cited by topics/known.md, is left out), two pending records
// and a legacy record (trusted content, untrusted speaker).
func wtBackfillState(t *testing.T) (state string, trusted, pending []string) {
	t.Helper()
	var frames []archive.Frame
	for i := 0; i < 35; i++ {
		rec := archive.Record{SourceID: fmt.Sprintf("openprogram/history/r%02d", i), Role: "user",
			Time:    time.Date(2026, 7, 1, 9, i, 0, 0, time.UTC),
			Content: fmt.Sprintf("Record %d of the migration notes: the depot moved to Leeds in 2019.", i) + strings.Repeat(" banana", 1000)}
		if i >= 33 {
			rec.SpeakerID, rec.SpeakerDisplay, rec.Pending = "u666", "Stranger", true
			rec.Content = fmt.Sprintf("Pending record %d: quokka.", i)
			pending = append(pending, rec.SourceID)
		} else {
			if cost := render.CountTokens(rec.Content); cost < 950 || cost > 1050 {
				t.Fatalf("fixture: record %d costs %d tokens, want about 1000", i, cost)
			}
			trusted = append(trusted, rec.SourceID)
		}
		if err := rec.Validate(); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, rec.Frame())
	}
	known := "# Known\n\nRecord 0 is already distilled.[^e-00000000aa] ^00c0ffee\n\n" +
		"[^e-00000000aa]: Time: `2026-07-01`; Sources: [openprogram/history/r00](../sources/openprogram/_v2/history.md#" +
		archive.AnchorFor("openprogram/history/r00") + ")\n"
	state = ftEmpty(t, map[string]string{
		"sources/openprogram/_v2/history.md": string(archive.RenderV2(frames)),
		"topics/known.md":                    known,
		"sources/openprogram/oldthread.md":   wtLegacy,
	})
	return state, append(trusted, wtLegacyRef), pending
}

// TestBackfill_Offline: backfill distils every trusted uncited source, in
// token-budgeted batches, never a pending one; a second run does nothing.
func TestBackfill_Offline(t *testing.T) {
	ctx := context.Background()
	state, trusted, pending := wtBackfillState(t)
	e := wtOpen(t, state, nil)
	ftVerifyClean(t, e)
	res, err := writer.Backfill(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	if res.Batches != 3 || res.Sources != len(trusted)-1 {
		t.Errorf("backfill %+v, want 3 batches and %d sources", res, len(trusted)-1)
	}
	cites := wtCitations(t, state)
	for _, ref := range trusted {
		if cites[ref] == 0 {
			t.Errorf("%s is not cited", ref)
		}
	}
	for _, ref := range pending {
		if cites[ref] != 0 {
			t.Errorf("pending %s was distilled", ref)
		}
	}
	ftVerifyClean(t, e)
	for p := range wtTopics(t, state) {
		// A speakerless record is the owner's: people/owner.md. The
		// legacy record's "[张三 (u123)]" hint names no one.
		if strings.HasPrefix(p, "topics/people/") && p != "topics/people/owner.md" {
			t.Errorf("backfill filed %s under a person, but no record has a trusted speaker", p)
		}
	}
	h := ftHistory(t, e)
	if len(h) != 3 {
		t.Fatalf("history %+v, want three installs", h)
	}
	for _, entry := range h {
		if entry.Kind != "backfill" || entry.Actor != "owner" {
			t.Errorf("history entry %+v, want a backfill by the owner", entry)
		}
	}
	// Idempotent: nothing is left.
	rev, tree := ftRevision(t, e), ftTree(t, state)
	again, err := writer.Backfill(ctx, e)
	if err != nil || again.Sources != 0 || again.Batches != 0 {
		t.Errorf("second backfill: %+v, %v", again, err)
	}
	if ftRevision(t, e) != rev || ftTreeDiff(tree, ftTree(t, state)) != "" {
		t.Errorf("a second backfill changed the workspace")
	}
}

// TestBackfill_FailedBatchResumes: a failed batch installs nothing and
// stops the run; a rerun starts at the first still-uncited source, so no
// source is distilled twice.
func TestBackfill_FailedBatchResumes(t *testing.T) {
	ctx := context.Background()
	state, trusted, _ := wtBackfillState(t)
	unavailable := &model.Error{Code: model.CodeUnavailable, Retryable: true, Message: "connection refused"}

	t.Run("first batch fails", func(t *testing.T) {
		state, _, _ := wtBackfillState(t)
		e := wtOpen(t, state, &wtModel{answer: func(int, model.Request) (string, error) { return "", unavailable }})
		tree := ftTree(t, state)
		res, err := writer.Backfill(ctx, e)
		if ftCode(err) != errcode.ModelUnavailable || !errcode.As(err).Retryable() {
			t.Fatalf("backfill: %+v, %v; want MODEL_UNAVAILABLE", res, err)
		}
		if res.Sources != 0 || ftRevision(t, e) != 0 || ftTreeDiff(tree, ftTree(t, state)) != "" {
			t.Errorf("a failed batch installed something: %+v", res)
		}
	})

	// The model distils the first batch and fails on the second.
	var sent [][]string
	m := &wtModel{answer: func(call int, req model.Request) (string, error) {
		srcs := wtSources(req.Messages[0].Content)
		var refs []string
		for _, s := range srcs {
			refs = append(refs, s.Ref)
		}
		sent = append(sent, refs)
		if call == 2 {
			return "", unavailable
		}
		return wtCitingEdits(srcs), nil
	}}
	e := wtOpen(t, state, m)
	res, err := writer.Backfill(ctx, e)
	if ftCode(err) != errcode.ModelUnavailable {
		t.Fatalf("backfill: %+v, %v; want MODEL_UNAVAILABLE on the second batch", res, err)
	}
	if len(sent) != 2 || ftRevision(t, e) != 1 || len(ftHistory(t, e)) != 1 {
		t.Fatalf("%d model calls, revision %d; want the first batch installed, the second not", len(sent), ftRevision(t, e))
	}
	cites := wtCitations(t, state)
	for _, ref := range sent[0] {
		if cites[ref] != 1 {
			t.Errorf("first batch: %s cited %d times", ref, cites[ref])
		}
	}
	for _, ref := range sent[1] {
		if cites[ref] != 0 {
			t.Errorf("failed batch: %s is cited", ref)
		}
	}
	if slices.Contains(sent[0], "openprogram/history/r00") || slices.Contains(sent[1], "openprogram/history/r00") {
		t.Errorf("backfill sent the already cited r00")
	}

	// The rerun (offline this time) picks up exactly what is left.
	e2 := wtOpen(t, state, nil)
	res, err = writer.Backfill(ctx, e2)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(trusted) - 1 - len(sent[0]); res.Sources != want {
		t.Errorf("rerun distilled %d sources, want the %d left", res.Sources, want)
	}
	cites = wtCitations(t, state)
	for _, ref := range trusted {
		if cites[ref] == 0 {
			t.Errorf("%s is not cited after the rerun", ref)
		}
	}
	ftVerifyClean(t, e2)
	if again, err := writer.Backfill(ctx, e2); err != nil || again.Sources != 0 {
		t.Errorf("third run: %+v, %v", again, err)
	}
}

// TestPromote_DistilsThroughWriter: a pending source the writer archived
// from an unpaired group message is, once promoted, distilled by the
// writer's model in a promote install; promoting again changes nothing.
func TestPromote_DistilsThroughWriter(t *testing.T) {
	ctx := context.Background()
	state := ftEmpty(t, nil)
	wtImport(t, state, wtChain("",
		wtTurn{Session: "grp", ID: "o1", Role: "user", Content: "Owner: the release train leaves on Mondays.", Group: true},
		wtTurn{Session: "grp", ID: "q2", Role: "user", Content: "Newcomer: the staging box is named pelican.",
			SpeakerID: "u456", SpeakerDisplay: "B", Tier: "unpaired", Group: true})...)
	m := &wtModel{}
	e := wtOpen(t, state, m)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	const ref = "openprogram/grp/q2"
	if ps, err := review.Pending(ctx, e); err != nil || len(ps) != 1 || ps[0].Ref != ref {
		t.Fatalf("pending %+v, %v", ps, err)
	}
	if hits, _ := e.Search(ctx, result.SearchQuery{Text: "pelican"}); len(hits) != 0 {
		t.Errorf("search returned the pending source: %+v", hits)
	}
	calls := len(m.requests())

	res, err := e.Promote(ctx, []string{ref})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Promoted, []string{ref}) || !slices.Equal(res.Distilled, []string{ref}) {
		t.Errorf("promote %+v", res)
	}
	reqs := m.requests()
	if len(reqs) != calls+1 {
		t.Fatalf("the writer's model was asked %d times for the promotion, want once", len(reqs)-calls)
	}
	lines := wtSection(wtUserMessage(t, reqs[len(reqs)-1]), "TURNS")
	if len(lines) != 1 || !strings.Contains(lines[0], `"ref":"`+ref+`"`) || !strings.Contains(lines[0], `"speaker":"B (u456)"`) {
		t.Errorf("promotion sent the writer %q", lines)
	}
	if n := wtCitations(t, state)[ref]; n != 1 {
		t.Errorf("%s cited %d times after promotion, want once", ref, n)
	}
	h := ftHistory(t, e)
	if len(h) == 0 || h[0].Kind != "promote" {
		t.Fatalf("history %+v, want a promote install on top", h)
	}
	ftVerifyClean(t, e)
	if v, err := e.Get(ctx, ref); err != nil || v.(result.SourceView).Trust != "trusted" {
		t.Errorf("get %s: %+v, %v", ref, v, err)
	}
	if hits, err := e.Search(ctx, result.SearchQuery{Text: "pelican"}); err != nil || len(hits) == 0 {
		t.Errorf("search pelican after promotion: %+v, %v", hits, err)
	}

	// Promoting again is a no-op: no model call, no revision, no change.
	rev, hist, tree := ftRevision(t, e), len(ftHistory(t, e)), ftTree(t, state)
	again, err := e.Promote(ctx, []string{ref})
	if err != nil || len(again.Promoted)+len(again.Distilled) != 0 {
		t.Errorf("second promotion: %+v, %v", again, err)
	}
	if ftRevision(t, e) != rev || len(ftHistory(t, e)) != hist || ftTreeDiff(tree, ftTree(t, state)) != "" || len(m.requests()) != len(reqs) {
		t.Errorf("the second promotion changed something")
	}
}

// TestBackfill_LegacyHintIsNotIdentity: a legacy record's "[display (id)]"
// body prefix is a search hint only; backfill sends the writer the record
// without a speaker and its content byte-exact.
func TestBackfill_LegacyHintIsNotIdentity(t *testing.T) {
	ctx := context.Background()
	state := ftEmpty(t, map[string]string{"sources/openprogram/oldthread.md": wtLegacy})
	m := &wtModel{}
	e := wtOpen(t, state, m)
	v, err := e.Get(ctx, wtLegacyRef)
	if err != nil {
		t.Fatal(err)
	}
	if sv := v.(result.SourceView); sv.SpeakerID != "u123" || sv.SpeakerTrusted {
		t.Fatalf("fixture: the legacy record should carry an untrusted u123 hint: %+v", sv)
	}
	res, err := writer.Backfill(ctx, e)
	if err != nil || res.Sources != 1 {
		t.Fatalf("backfill %+v, %v", res, err)
	}
	reqs := m.requests()
	if len(reqs) != 1 {
		t.Fatalf("model asked %d times", len(reqs))
	}
	lines := wtSection(wtUserMessage(t, reqs[0]), "TURNS")
	if len(lines) != 1 {
		t.Fatalf("turn lines %q", lines)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["speaker"]; ok {
		t.Errorf("the legacy hint became the speaker: %s", lines[0])
	}
	if got["ref"] != wtLegacyRef || got["content"] != "[张三 (u123)] I moved to Lisbon in 2021 to breed llamas." {
		t.Errorf("turn line %s", lines[0])
	}
	if wtCitations(t, state)[wtLegacyRef] != 1 {
		t.Errorf("the legacy record is not cited")
	}
	ftVerifyClean(t, e)
}
