package writer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
)

func TestRelevantTopics_SpeakerFileAndCoreFirst(t *testing.T) {
	state := t.TempDir()
	for p, text := range map[string]string{
		"topics/a.md":            "# A\n\nNothing related. ^aaaaaaa1\n",
		"topics/garden.md":       "# Garden\n\nTomatoes and basil grow here. ^aaaaaaa2\n",
		"topics/core.md":         "# Core\n\nCore facts. ^aaaaaaa3\n",
		"topics/people/craig.md": "# Craig\n\nCraig likes tea. ^aaaaaaa4\n",
	} {
		full := filepath.Join(state, "memory", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	v, err := e.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	recs := []distillRecord{{SpeakerID: "u1", SpeakerDisplay: "Craig", Content: "My tomatoes need more basil."}}
	got := relevantTopics(v, recs, promptContextOf(v, recs, "").files)
	want := []string{"topics/people/craig.md", "topics/core.md", "topics/garden.md", "topics/a.md"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("relevantTopics = %v, want %v", got, want)
	}
}
