package revert_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/revert"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

const revertFile = "# Notes\n\nAlpha fact. ^aaaaaaa1\n\nBeta fact. ^aaaaaaa2\n\nGamma fact. ^aaaaaaa3\n"

// revertSetup opens an empty workspace and installs topics/notes.md at
// revision 1.
func revertSetup(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	state := enginetest.Empty(t, nil)
	e := enginetest.Open(t, state)
	if _, err := e.Update(context.Background(), enginetest.Tx(0, enginetest.Create("topics/notes.md", revertFile))); err != nil {
		t.Fatal(err)
	}
	return e, state
}

func TestRevert_RoundTrip(t *testing.T) {
	ctx := context.Background()
	e, state := revertSetup(t)
	before := enginetest.Tree(t, state)
	rev := enginetest.Update(t, e, enginetest.Replace("topics/notes.md", strings.Replace(revertFile, "Beta fact.", "Beta fact, edited.", 1)),
		enginetest.Create("topics/extra.md", "# Extra\n\nDelta fact. ^aaaaaaa4\n"))

	dry, err := revert.Revert(ctx, e, rev, true)
	if err != nil {
		t.Fatal(err)
	}
	if !dry.DryRun || dry.Revision != 0 || len(dry.Changed) != 2 || !strings.Contains(dry.Changed[0].Diff+dry.Changed[1].Diff, "-Beta fact, edited.") {
		t.Fatalf("dry run = %+v", dry)
	}
	if got := enginetest.Revision(t, e); got != rev {
		t.Fatalf("a dry run installed revision %d", got)
	}
	res, err := revert.Revert(ctx, e, rev, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != rev+1 || res.Reverts != rev {
		t.Fatalf("revert = %+v", res)
	}
	if d := enginetest.TreeDiff(before, enginetest.Tree(t, state)); d != "" {
		t.Errorf("after the revert the workspace differs from before revision %d:\n%s", rev, d)
	}
	h := enginetest.History(t, e)
	if h[0].Kind != "revert" || h[0].Reverts != rev || h[0].Revision != res.Revision {
		t.Errorf("history head = %+v, want a revert naming %d", h[0], rev)
	}
	enginetest.VerifyClean(t, e)

	// Reverting the revert re-applies the original.
	if _, err := revert.Revert(ctx, e, res.Revision, false); err != nil {
		t.Fatal(err)
	}
	if got := enginetest.Read(t, state, "topics/notes.md"); !strings.Contains(got, "Beta fact, edited.") {
		t.Errorf("reverting the revert did not re-apply revision %d:\n%s", rev, got)
	}
	if !enginetest.Exists(state, "topics/extra.md") {
		t.Error("reverting the revert did not re-create topics/extra.md")
	}
}

func TestRevert_KeepsLaterChangesToOtherBlocks(t *testing.T) {
	ctx := context.Background()
	e, state := revertSetup(t)
	rev := enginetest.Update(t, e, enginetest.Replace("topics/notes.md", strings.Replace(revertFile, "Alpha fact.", "Alpha fact, edited.", 1)))
	later := strings.Replace(strings.Replace(revertFile, "Alpha fact.", "Alpha fact, edited.", 1), "Gamma fact.", "Gamma fact, later.", 1)
	enginetest.Update(t, e, enginetest.Replace("topics/notes.md", later))
	if _, err := revert.Revert(ctx, e, rev, false); err != nil {
		t.Fatal(err)
	}
	got := enginetest.Read(t, state, "topics/notes.md")
	if !strings.Contains(got, "Alpha fact. ^aaaaaaa1") || !strings.Contains(got, "Gamma fact, later.") {
		t.Errorf("revert did not undo only its own block:\n%s", got)
	}
}

func TestRevert_ConflictNamesBlockAndLaterRevision(t *testing.T) {
	ctx := context.Background()
	e, state := revertSetup(t)
	rev := enginetest.Update(t, e, enginetest.Replace("topics/notes.md", strings.Replace(revertFile, "Beta fact.", "Beta fact, first.", 1)))
	later := enginetest.Update(t, e, enginetest.Replace("topics/notes.md", strings.Replace(revertFile, "Beta fact.", "Beta fact, second.", 1)))
	tree := enginetest.Tree(t, state)
	_, err := revert.Revert(ctx, e, rev, false)
	if enginetest.Code(err) != errcode.Conflict {
		t.Fatalf("err = %v, want CONFLICT", err)
	}
	vs := enginetest.Violations(err)
	if len(vs) != 1 || vs[0].Path != "topics/notes.md" || !strings.Contains(vs[0].Message, "^aaaaaaa2") ||
		!strings.Contains(vs[0].Message, "revision "+itoa(later)) {
		t.Errorf("violations = %+v, want ^aaaaaaa2 changed by revision %d", vs, later)
	}
	if d := enginetest.TreeDiff(tree, enginetest.Tree(t, state)); d != "" {
		t.Errorf("a refused revert changed files:\n%s", d)
	}
	if enginetest.Revision(t, e) != later {
		t.Error("a refused revert installed a revision")
	}
}

func TestRevert_Refusals(t *testing.T) {
	ctx := context.Background()
	e, state := revertSetup(t)
	if _, err := revert.Revert(ctx, e, 99, false); enginetest.Code(err) != errcode.NotFound {
		t.Errorf("unknown revision: err = %v, want NOT_FOUND", err)
	}
	// A writer batch of unpaired group messages only appends a pending
	// source: archives are append-only, so there is nothing to revert.
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Import(strings.NewReader(`{"session":"g","provider":"telegram","id":"1","role":"user","speaker_id":"u9",` +
		`"speaker_display":"Stranger","content":"hello","time":"2026-01-01T10:00:00Z","tier":"unpaired","group":true}` + "\n"))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	res, err := writer.Write(ctx, e, writer.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = revert.Revert(ctx, e, res.Revision, false)
	if enginetest.Code(err) != errcode.InvalidArgument || !strings.Contains(err.Error(), "append-only") {
		t.Errorf("archive-only revert: err = %v, want INVALID_ARGUMENT naming append-only archives", err)
	}
	paired := enginetest.Open(t, state, enginetest.AsPaired)
	if _, err := revert.Revert(ctx, paired, 1, false); enginetest.Code(err) != errcode.Forbidden {
		t.Errorf("paired revert: err = %v, want FORBIDDEN", err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
