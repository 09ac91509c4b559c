package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// TestCLI_WriteRedistill: write --redistill answers --json with the
// proposal it stored and changes nothing in memory; accept installs it;
// a second run has nothing to do; --thread without --redistill, and
// --redistill with --force, are usage errors that touch nothing; an
// unknown thread is NOT_FOUND.
func TestCLI_WriteRedistill(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, cwTurns, "import", "-", "--state", state); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	w := runCLI(t, "", "write", "--force", "--json", "--state", state)
	if w.code != 0 {
		t.Fatalf("write: %s%s", w.stdout, w.stderr)
	}
	// The writer distils now; the memory redistill is for is the old
	// writer's one block per turn, installed here as it wrote it.
	if r := runCLI(t, oldTurnBlocks(t, oneJSON(t, w.stdout)["revision"]), "update", "-", "--state", state); r.code != 0 {
		t.Fatalf("update: %s%s", r.stdout, r.stderr)
	}
	memory := filepath.Join(state, "memory", "topics")
	before := cwSnapshot(t, memory)
	for _, args := range [][]string{{"--thread", "openprogram/chat"}, {"--redistill", "--force"}, {"--redistill", "--session", "chat"}} {
		r := runCLI(t, "", append([]string{"write", "--json", "--state", state}, args...)...)
		e, _ := oneJSON(t, r.stdout)["error"].(map[string]any)
		if r.code != 2 || e == nil || e["code"] != "INVALID_ARGUMENT" {
			t.Errorf("write %v: exit %d %s", args, r.code, r.stdout)
		}
	}
	r := runCLI(t, "", "write", "--redistill", "--thread", "openprogram/nope", "--json", "--state", state)
	if e, _ := oneJSON(t, r.stdout)["error"].(map[string]any); r.code == 0 || e == nil || e["code"] != "NOT_FOUND" {
		t.Errorf("unknown thread: exit %d %s", r.code, r.stdout)
	}
	r = runCLI(t, "", "write", "--redistill", "--thread", "openprogram/chat", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	id, _ := doc["proposal"].(string)
	if r.code != 0 || id == "" || doc["turn_blocks"] != json.Number("3") {
		t.Fatalf("redistill: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	for _, k := range []string{"threads", "kept", "added", "cited", "replaced", "changed", "revision"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, r.stdout)
		}
	}
	if after := cwSnapshot(t, memory); len(after) != len(before) {
		t.Fatal("redistill changed memory before accept")
	} else {
		for k, v := range before {
			if after[k] != v {
				t.Fatalf("redistill touched %s before accept", k)
			}
		}
	}
	if r := runCLI(t, "", "accept", id, "--state", state); r.code != 0 {
		t.Fatalf("accept: %s%s", r.stdout, r.stderr)
	}
	r = runCLI(t, "", "write", "--redistill", "--state", state)
	if r.code != 0 || !strings.Contains(r.stdout, "nothing to redistill") {
		t.Errorf("second redistill: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "verify", "--state", state); r.code != 0 {
		t.Errorf("verify: %s%s", r.stdout, r.stderr)
	}
}

// oldTurnBlocks is a transaction on base creating the topic file the old
// offline writer made of cwTurns: one block per turn, "role: text", citing
// that turn.
func oldTurnBlocks(t *testing.T, base any) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Thread openprogram/chat\n")
	for _, line := range strings.Split(strings.TrimSpace(cwTurns), "\n") {
		var turn struct{ ID, Role, Content, Time string }
		if err := json.Unmarshal([]byte(line), &turn); err != nil {
			t.Fatal(err)
		}
		ref := "openprogram/chat/" + turn.ID
		label := topic.NewFootnoteLabel("footnote:" + ref)
		fmt.Fprintf(&b, "\n%s: %s[^%s] ^%s\n\n%s\n", turn.Role, topic.BlockSafe(turn.Content), label, topic.NewBlockID("block:"+ref),
			topic.FormatDefinition(topic.Definition{Label: label, Date: turn.Time[:10],
				Sources: []topic.Citation{{SourceID: ref, Path: "../../sources/openprogram/_v2/chat.md", Anchor: archive.AnchorFor(ref)}}}))
	}
	tx, _ := json.Marshal(map[string]any{"base_revision": base,
		"edits": []map[string]string{{"op": "create", "path": "topics/threads/openprogram-chat.md", "content": b.String()}}})
	return string(tx)
}
