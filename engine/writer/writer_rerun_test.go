package writer_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// If the writer's process dies after its install but before the written
// markers are set, the next run finds the turns archived and cited: it
// marks them without distilling them a second time.
func TestWrite_RerunAfterLostMarkersDoesNotDuplicate(t *testing.T) {
	state := t.TempDir()
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","content":"I work as a nurse in Leeds.","time":"2026-01-01T10:00:00Z","tier":"owner"}
{"session":"s1","id":"m2","parent":"m1","role":"user","content":"I play the cello.","time":"2026-01-01T10:01:00Z","tier":"owner"}
`)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	// Simulate the lost markers: a fresh session store without them.
	db, err := sql.Open("sqlite", workspace.SessionsDB(state))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `UPDATE nodes SET metadata = '{}'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if n := sessions.PendingTurnCount(workspace.SessionsDB(state), e.WorkspaceID()); n != 2 {
		t.Fatalf("after clearing markers %d turns pending, want 2", n)
	}
	rev, _ := e.Revision()
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := sessions.PendingTurnCount(workspace.SessionsDB(state), e.WorkspaceID()); n != 0 {
		t.Errorf("%d turns still pending after the rerun", n)
	}
	if after, _ := e.Revision(); after != rev {
		t.Errorf("the rerun installed revision %d: the turns were distilled twice", after)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data, _, _ := v.Topic("topics/people/owner.md")
	if count := strings.Count(string(data), "The owner works as a nurse in Leeds."); count != 1 {
		t.Errorf("the fact appears in %d blocks of people/owner.md, want 1:\n%s", count, data)
	}
}
