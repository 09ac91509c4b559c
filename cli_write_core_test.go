package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cwPreference is a chat whose owner states a standing preference: the
// writer files it and proposes it for topics/core.md.
const cwPreference = `{"session":"prefs","id":"p1","role":"user","content":"From now on, always give quantities in grams.","time":"2026-08-10T12:00:00Z"}
{"session":"prefs","id":"p2","parent":"p1","role":"assistant","content":"Understood.","time":"2026-08-10T12:01:00Z"}
`

// TestCLI_WriteSaysCoreProposal: a write that leaves a core.md proposal
// waiting says so, with the proposal's id (text and --json
// "core_proposal"), so the owner who runs `write` learns that something
// waits for them; a write that proposes nothing has no such field.
func TestCLI_WriteSaysCoreProposal(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, cwPreference, "import", "-", "--state", state); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	r := runCLI(t, "", "write", "--force", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	id, _ := doc["core_proposal"].(string)
	if r.code != 0 || !strings.HasPrefix(id, "p-") {
		t.Fatalf("write --json: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	p := runCLI(t, "", "proposals", "--state", state)
	if !strings.Contains(p.stdout, id) || !strings.Contains(p.stdout, "topics/core.md") {
		t.Fatalf("proposals does not list %s for core.md:\n%s", id, p.stdout)
	}
	// Nothing new: no proposal made, none named.
	r = runCLI(t, "", "write", "--force", "--json", "--state", state)
	if _, ok := oneJSON(t, r.stdout)["core_proposal"]; r.code != 0 || ok {
		t.Errorf("second write: exit %d %s", r.code, r.stdout)
	}

	// The text output names it too.
	state2 := filepath.Join(t.TempDir(), "state2")
	if err := os.MkdirAll(state2, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, cwPreference, "import", "-", "--state", state2); r.code != 0 {
		t.Fatalf("import: %s%s", r.stdout, r.stderr)
	}
	r = runCLI(t, "", "write", "--force", "--state", state2)
	if r.code != 0 || !strings.Contains(r.stdout, "core.md") || !strings.Contains(r.stdout, "accept p-") {
		t.Errorf("write does not say a core.md proposal waits: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
