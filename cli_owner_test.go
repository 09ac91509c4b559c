package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// coTurns is a speakerless chat (the owner at a terminal) that states two
// facts about the owner.
const coTurns = `{"session":"food","id":"f1","role":"user","content":"I am vegetarian.","time":"2026-08-10T12:00:00Z"}
{"session":"food","id":"f2","parent":"f1","role":"assistant","content":"Noted.","time":"2026-08-10T12:01:00Z"}
{"session":"food","id":"f3","parent":"f2","role":"user","content":"I live in Bergen.","time":"2026-08-10T12:02:00Z"}
`

// TestCLI_OwnerMigrate: facts written before memory had the owner's
// name sit in people/owner.md as "the owner"; once [owner] name is set,
// `owner` says so and `owner --migrate` moves them into people/<name>.md
// reworded, keeping their ids, in one transaction that `revert` undoes.
func TestCLI_OwnerMigrate(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, coTurns, "import", "-", "--state", state); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "write", "--force", "--state", state); r.code != 0 {
		t.Fatalf("write: %s%s", r.stdout, r.stderr)
	}
	old := readTopic(t, state, "people/owner.md")
	if !strings.Contains(old, "The owner is vegetarian") {
		t.Fatalf("people/owner.md:\n%s", old)
	}
	r := runCLI(t, "", "owner", "--json", "--state", state)
	if doc := oneJSON(t, r.stdout); r.code != 0 || doc["source"] != "none" || doc["file"] != "topics/people/owner.md" {
		t.Fatalf("owner before a name: exit %d %s", r.code, r.stdout)
	}
	if r := runCLI(t, "", "owner", "--migrate", "--yes", "--json", "--state", state); !strings.Contains(r.stdout, `"NOT_CONFIGURED"`) {
		t.Errorf("--migrate without a name: %s", r.stdout)
	}
	if r := runCLI(t, "", "owner", "--set", "[Sigrid]", "--json", "--state", state); !strings.Contains(r.stdout, `"INVALID_ARGUMENT"`) {
		t.Errorf("--set with a bad name: %s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(state, "config.toml")); err == nil {
		t.Error("a refused --set wrote config.toml")
	}
	r = runCLI(t, "", "owner", "--set", "Sigrid", "--state", state)
	if r.code != 0 || !strings.Contains(r.stdout, `memory calls you "Sigrid"`) || !strings.Contains(r.stdout, "owner --migrate") {
		t.Errorf("owner: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	before := treeState(t, filepath.Join(state, "memory"), ".scriptorium")
	for _, args := range [][]string{{"owner", "--migrate"}, {"owner", "--migrate", "--dry-run"}} {
		r = runCLI(t, "", append(args, "--json", "--state", state)...)
		if len(args) == 2 && !strings.Contains(r.stdout, `"FORBIDDEN"`) || len(args) == 3 && r.code != 0 {
			t.Errorf("%v: exit %d %s", args, r.code, r.stdout)
		}
	}
	if after := treeState(t, filepath.Join(state, "memory"), ".scriptorium"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Error("a refused or dry migration changed the workspace")
	}
	r = runCLI(t, "", "owner", "--migrate", "--yes", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	if r.code != 0 || doc["to"] != "topics/people/sigrid.md" || doc["file_deleted"] != true {
		t.Fatalf("--migrate: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	sigrid := readTopic(t, state, "people/sigrid.md")
	for _, want := range []string{"# Sigrid\n", "Sigrid is vegetarian", "Bergen"} {
		if !strings.Contains(sigrid, want) {
			t.Errorf("people/sigrid.md lacks %q:\n%s", want, sigrid)
		}
	}
	ids := blockIDs(old)
	if len(ids) < 2 {
		t.Fatalf("people/owner.md has %d block ids:\n%s", len(ids), old)
	}
	for _, id := range ids {
		if !strings.Contains(sigrid, " ^"+id+"\n") {
			t.Errorf("^%s was not kept:\n%s", id, sigrid)
		}
	}
	if _, err := os.Stat(filepath.Join(state, "memory", "topics", "people", "owner.md")); err == nil {
		t.Error("people/owner.md is still there")
	}
	if r := runCLI(t, "", "verify", "--state", state); r.code != 0 {
		t.Errorf("verify: %s", r.stdout)
	}
	rev := fmt.Sprint(doc["revision"])
	if r := runCLI(t, "", "revert", rev, "--yes", "--state", state); r.code != 0 {
		t.Fatalf("revert %s: %s%s", rev, r.stdout, r.stderr)
	}
	if got := readTopic(t, state, "people/owner.md"); got != old {
		t.Errorf("after revert people/owner.md:\n%s\nwant\n%s", got, old)
	}
}

// blockIDs are the ids at the ends of a topic file's block lines.
func blockIDs(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.LastIndex(l, " ^"); i >= 0 && len(l)-i == 10 {
			out = append(out, l[i+2:])
		}
	}
	return out
}
