package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
)

// TestCLI_ErrorTextSaysItOnce: the error documents of failing imports (a
// missing file, a bad line, a damaged sessions.db), of a write over a
// damaged sessions.db and of an open over a damaged workspace never
// repeat a prefix ("import: import: …", "open workspace: open workspace
// …"), and each names what failed.
func TestCLI_ErrorTextSaysItOnce(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state")
	good := filepath.Join(dir, "good.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	line := `{"session":"s","id":"1","role":"user","content":"hi","time":"2026-01-01T00:00:00Z"}` + "\n"
	if err := os.WriteFile(good, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(name, want string, args ...string) {
		t.Helper()
		r := runCLI(t, "", append(args, "--json", "--state", state)...)
		var doc struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || r.code != 1 || doc.Error.Code == "" {
			t.Fatalf("%s: exit %d, want an error document:\n%s%s", name, r.code, r.stdout, r.stderr)
		}
		clitest.NoRepeatedPrefix(t, args, doc.Error.Message)
		if !strings.Contains(doc.Error.Message, want) {
			t.Errorf("%s: message %q does not name %q", name, doc.Error.Message, want)
		}
	}
	check("missing file", "missing.jsonl", "import", filepath.Join(dir, "missing.jsonl"))
	check("bad line", "nothing was imported", "import", bad)
	if r := runCLI(t, "", "import", good, "--state", state); r.code != 0 {
		t.Fatalf("import: %d %s%s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(state, "sessions.db"), []byte(strings.Repeat("not sqlite ", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged sessions.db", "sessions.db", "import", good)
	check("write over a damaged sessions.db", "sessions.db", "write", "--force")
	if err := os.WriteFile(filepath.Join(state, "memory", ".scriptorium", "revision"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("damaged revision file", "revision", "status")
}
