package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/workspace/archive"
)

// A hand-written core.md that is not a valid topic file is never lost:
// its bytes become trusted migration evidence, and topics/core.md is
// distilled from it with every block citing that evidence.
func TestCore_MigratesInvalidHandWrittenCore(t *testing.T) {
	state := t.TempDir()
	mem := filepath.Join(state, "memory")
	if err := os.MkdirAll(mem, 0o755); err != nil {
		t.Fatal(err)
	}
	hand := "# About me\r\n\r\nI prefer tea over coffee.  \r\n\r\nMy cat is called Pixel. ^0badc0de\r\n\r\n- likes: [^nope] footnote-looking text\n- and a link](x.md#^ffffffff)\n"
	if err := os.WriteFile(filepath.Join(mem, "core.md"), []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep, err := e.Core(ctx)
	if err != nil {
		t.Fatalf("core: %v", err)
	}
	if len(rep.Included) != 3 {
		t.Errorf("included %v, want the three paragraphs", rep.Included)
	}
	data, err := os.ReadFile(filepath.Join(mem, "sources", "migration", "_v2", "core.md"))
	if err != nil {
		t.Fatal(err)
	}
	frames, err := archive.ParseV2(data)
	if err != nil || len(frames) != 1 || frames[0].Content != hand {
		t.Fatalf("the evidence does not hold the hand-written bytes exactly: %v %+v", err, frames)
	}
	topicCore, err := os.ReadFile(filepath.Join(mem, "topics", "core.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(topicCore), "^0badc0de") || !strings.Contains(string(topicCore), "# About me") {
		t.Errorf("topics/core.md lost the heading or the existing id:\n%s", topicCore)
	}
	if v, err := e.Verify(ctx); err != nil || !v.OK {
		t.Fatalf("verify after migration: %v %+v", err, v.Violations)
	}
	hist, _ := e.rec.Histories(ctx) // the core's own reader: History is the audit service's
	if len(hist) != 1 || hist[0].Kind != "migration" {
		t.Errorf("history %+v, want one migration install", hist)
	}
}
