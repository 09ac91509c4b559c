package proposals_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

const notes = "# Notes\n\nAlpha fact. ^aaaaaaa1\n\nBeta fact. ^aaaaaaa2\n"

// propose stores a proposal that rewrites the Alpha block of notes.md and
// creates extra.md, computed against the current revision.
func propose(t *testing.T, e *engine.Engine) proposals.Proposal {
	t.Helper()
	v, err := e.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(notes, "Alpha fact.", "Alpha fact, proposed.", 1)
	plan, err := e.Plan(v, engine.Change{Kind: "sleep", Edits: []result.Edit{
		enginetest.Replace("topics/notes.md", edited), enginetest.Create("topics/extra.md", "# Extra\n\nGamma fact. ^aaaaaaa3\n")}})
	if err != nil {
		t.Fatal(err)
	}
	p := proposals.FromPlan(e, "sleep", "offline", v, plan)
	if err := proposals.Save(e, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func setup(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	state := enginetest.Empty(t, map[string]string{"topics/notes.md": notes})
	return enginetest.Open(t, state), state
}

func TestAccept_StaleBaseRebases(t *testing.T) {
	ctx := context.Background()
	e, state := setup(t)
	p := propose(t, e)
	// Meanwhile another block of the same file changes.
	later := strings.Replace(notes, "Beta fact.", "Beta fact, later.", 1)
	if _, err := e.Update(ctx, enginetest.Tx(enginetest.Revision(t, e), enginetest.Replace("topics/notes.md", later))); err != nil {
		t.Fatal(err)
	}
	res, err := proposals.Accept(ctx, e, p.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Rebased || len(res.Remaining) != 0 || len(res.Changed) != 2 {
		t.Errorf("accept = %+v", res)
	}
	got := enginetest.Read(t, state, "topics/notes.md")
	if !strings.Contains(got, "Alpha fact, proposed.") || !strings.Contains(got, "Beta fact, later.") {
		t.Errorf("rebased notes.md lost a change:\n%s", got)
	}
	if ps, _ := proposals.List(e); len(ps) != 0 {
		t.Errorf("an accepted proposal is still listed: %+v", ps)
	}
	passes, _ := audit.Passes(ctx, e)
	if len(passes) != 1 || passes[0].Revision != res.Revision || len(passes[0].Changed) != 2 {
		t.Errorf("the accepted pass is not recorded: %+v", passes)
	}
	enginetest.VerifyClean(t, e)
}

func TestAccept_ConflictChangesNothing(t *testing.T) {
	ctx := context.Background()
	e, state := setup(t)
	p := propose(t, e)
	clash := strings.Replace(notes, "Alpha fact.", "Alpha fact, by hand.", 1)
	if _, err := e.Update(ctx, enginetest.Tx(enginetest.Revision(t, e), enginetest.Replace("topics/notes.md", clash))); err != nil {
		t.Fatal(err)
	}
	tree := enginetest.Tree(t, state)
	_, err := proposals.Accept(ctx, e, p.ID, nil)
	if enginetest.Code(err) != errcode.Conflict {
		t.Fatalf("err = %v, want CONFLICT", err)
	}
	if vs := enginetest.Violations(err); len(vs) != 1 || !strings.Contains(vs[0].Message, "^aaaaaaa1") {
		t.Errorf("violations = %+v, want the Alpha block", vs)
	}
	if d := enginetest.TreeDiff(tree, enginetest.Tree(t, state)); d != "" {
		t.Errorf("a refused accept changed files:\n%s", d)
	}
	if ps, _ := proposals.List(e); len(ps) != 1 {
		t.Error("a refused accept dropped the proposal")
	}
}

func TestAcceptOnly_ThenDecline(t *testing.T) {
	ctx := context.Background()
	e, state := setup(t)
	p := propose(t, e)
	res, err := proposals.Accept(ctx, e, p.ID, []string{"topics/extra.md"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Remaining) != 1 || res.Remaining[0] != "topics/notes.md" || !enginetest.Exists(state, "topics/extra.md") {
		t.Fatalf("partial accept = %+v", res)
	}
	if got := enginetest.Read(t, state, "topics/notes.md"); got != notes {
		t.Errorf("a file left out of the accept changed:\n%s", got)
	}
	if _, err := proposals.Accept(ctx, e, p.ID, []string{"topics/none.md"}); enginetest.Code(err) != errcode.InvalidArgument {
		t.Errorf("accept of a file not in the proposal: err = %v", err)
	}
	remaining, err := proposals.Decline(ctx, e, p.ID, nil)
	if err != nil || len(remaining) != 0 {
		t.Fatalf("decline = %v, %v", remaining, err)
	}
	if _, err := proposals.Accept(ctx, e, p.ID, nil); enginetest.Code(err) != errcode.NotFound {
		t.Errorf("accept after decline: err = %v, want NOT_FOUND", err)
	}
	if got := enginetest.Read(t, state, "topics/notes.md"); got != notes {
		t.Errorf("decline changed notes.md:\n%s", got)
	}
}

func TestWriterProposeMode(t *testing.T) {
	ctx := context.Background()
	state := enginetest.Empty(t, nil)
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[writer]\nmode = \"propose\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Import(strings.NewReader(`{"session":"s1","id":"m1","role":"user","content":"I play the cello.","time":"2026-01-01T10:00:00Z","tier":"owner"}` + "\n"))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	e := enginetest.Open(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(state, "memory", "topics")); len(ents) != 0 {
		t.Errorf("the writer in propose mode wrote topics: %v", ents)
	}
	if !enginetest.Exists(state, "sources/openprogram/_v2/s1.md") {
		t.Error("the source record was not archived")
	}
	ps, err := proposals.List(e)
	if err != nil || len(ps) != 1 || ps[0].Kind != "write" {
		t.Fatalf("proposals = %+v, %v", ps, err)
	}
	if n := sessions.PendingTurnCount(workspace.SessionsDB(state), e.WorkspaceID()); n != 0 {
		t.Errorf("%d turns still pending after the proposal", n)
	}
	if _, err := proposals.Accept(ctx, e, ps[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := e.Search(ctx, result.SearchQuery{Text: "cello", Path: "topics/"})
	if err != nil || len(hits) == 0 {
		t.Errorf("the accepted fact is not searchable: %v %v", hits, err)
	}
	enginetest.VerifyClean(t, e)
}
