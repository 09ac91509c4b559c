package engine

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"scriptorium/workspace"
)

// If the writer's process dies after its install but before the written
// markers are set, the next run finds the turns archived and cited: it
// marks them without distilling them a second time.
func TestWrite_RerunAfterLostMarkersDoesNotDuplicate(t *testing.T) {
	state := t.TempDir()
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","content":"I keep bees.","time":"2026-01-01T10:00:00Z","tier":"owner"}
{"session":"s1","id":"m2","parent":"m1","role":"user","content":"I play the cello.","time":"2026-01-01T10:01:00Z","tier":"owner"}
`)
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Write(ctx, WriteOptions{Force: true}); err != nil {
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
	if n := e.pendingTurnCount(ctx); n != 2 {
		t.Fatalf("after clearing markers %d turns pending, want 2", n)
	}
	rev, _ := e.ws.Revision()
	if _, err := e.Write(ctx, WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if n := e.pendingTurnCount(ctx); n != 0 {
		t.Errorf("%d turns still pending after the rerun", n)
	}
	if after, _ := e.ws.Revision(); after != rev {
		t.Errorf("the rerun installed revision %d: the turns were distilled twice", after)
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, p := range s.topicPaths {
		count += strings.Count(string(s.topics[p].data), "I keep bees.")
	}
	if count != 1 {
		t.Errorf("the fact appears in %d blocks, want 1", count)
	}
}

func TestRelevantTopics_SpeakerFileAndCoreFirst(t *testing.T) {
	s := &snapshot{topics: map[string]*topicFile{}}
	for p, text := range map[string]string{
		"topics/a.md":            "# A\n\nNothing related. ^aaaaaaa1\n",
		"topics/garden.md":       "# Garden\n\nTomatoes and basil grow here. ^aaaaaaa2\n",
		"topics/core.md":         "# Core\n\nCore facts. ^aaaaaaa3\n",
		"topics/people/craig.md": "# Craig\n\nCraig likes tea. ^aaaaaaa4\n",
	} {
		s.setTopic(p, []byte(text))
	}
	got := relevantTopics(s, []distillRecord{{SpeakerID: "u1", SpeakerDisplay: "Craig", Content: "My tomatoes need more basil."}})
	want := []string{"topics/people/craig.md", "topics/core.md", "topics/garden.md", "topics/a.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("relevantTopics = %v, want %v", got, want)
	}
}
