package writer_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine/writer"
)

// Issue 22: a coding session in a subfolder of a known project
// (…/heron/deploy) was filed under projects/deploy.md, where recall from
// the project never looks. It goes to the project's file.
func TestWrite_SubfolderSessionFiledUnderItsProject(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"k1","provider":"claude-code","id":"m1","role":"user","content":"Run the tests with make test-all before every commit, always.","time":"2026-08-10T12:00:00Z","tier":"owner","project":"/home/nadia/src/heron"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	importTurns(t, state, `{"session":"k2","provider":"claude-code","id":"m1","role":"user","content":"Deploy with make ship from the deploy folder, never by hand.","time":"2026-08-11T12:00:00Z","tier":"owner","project":"/home/nadia/src/heron/deploy"}
`)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.TopicPaths() {
		if strings.HasPrefix(p, "topics/projects/") && p != "topics/projects/heron.md" {
			t.Errorf("%s: the subfolder's session left its project", p)
		}
	}
	data, _, ok := v.Topic("topics/projects/heron.md")
	if !ok || !strings.Contains(string(data), "make ship") {
		t.Errorf("projects/heron.md lacks the subfolder session's fact:\n%s", data)
	}
}
