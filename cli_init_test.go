package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rough edge: a reading verb on a mistyped --state answered 0 and left an
// empty workspace behind. Now it is NOT_FOUND naming the path, and nothing
// is created; init and demo create.
func TestCLI_ReadingVerbsDoNotCreateAWorkspace(t *testing.T) {
	for _, verb := range [][]string{{"status"}, {"verify"}, {"search", "x"}, {"pending"}, {"history"}, {"core"}, {"get", "^deadbeef"}, {"proposals"}} {
		t.Run(verb[0], func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "typo")
			r := runCLI(t, "", append(verb, "--json", "--state", state)...)
			if r.code != 1 || !strings.Contains(r.stdout, "NOT_FOUND") || !strings.Contains(r.stdout, filepath.Join(state, "memory")) {
				t.Errorf("%s on a missing workspace: exit %d %s", verb[0], r.code, r.stdout)
			}
			if _, err := os.Stat(state); err == nil {
				t.Errorf("%s created %s", verb[0], state)
			}
		})
	}
}

func TestCLI_Init(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new")
	r := runCLI(t, "", "init", dir, "--json")
	if r.code != 0 {
		t.Fatalf("init: exit %d %s%s", r.code, r.stdout, r.stderr)
	}
	doc := oneJSON(t, r.stdout)
	if doc["created"] != true || doc["workspace_id"] == "" || doc["state"] != dir {
		t.Errorf("init = %v", doc)
	}
	again := oneJSON(t, runCLI(t, "", "init", "--state", dir, "--json").stdout)
	if again["created"] != false || again["workspace_id"] != doc["workspace_id"] {
		t.Errorf("init of an existing workspace = %v", again)
	}
	if st := runCLI(t, "", "status", "--state", dir); st.code != 0 {
		t.Errorf("status after init: exit %d %s", st.code, st.stderr)
	}
	if both := runCLI(t, "", "init", dir, "--state", dir); both.code != 2 {
		t.Errorf("init DIR --state: exit %d, want 2", both.code)
	}
}

// A bare `scriptorium` off a terminal on a missing workspace is NOT_FOUND
// and creates nothing (on a terminal it asks first).
func TestCLI_TUIOnMissingWorkspace(t *testing.T) {
	state := filepath.Join(t.TempDir(), "none")
	r := runCLI(t, "", "--state", state)
	if r.code != 1 || !strings.Contains(r.stderr, "no workspace at") {
		t.Errorf("bare scriptorium: exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(state); err == nil {
		t.Error("the TUI created the state dir without asking")
	}
}

// Rough edge: `VERB --help` printed the global help and `help`/`-h` exited
// 2. Every verb has its own help; help VERB and -h exit 0.
func TestCLI_VerbHelp(t *testing.T) {
	for _, args := range [][]string{{"revert", "--help"}, {"help", "revert"}, {"revert", "-h"}} {
		r := runCLI(t, "", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "usage: scriptorium revert REV") ||
			!strings.Contains(r.stdout, "--json: ") || !strings.Contains(r.stdout, "example: ") ||
			strings.Contains(r.stdout, "commands:") {
			t.Errorf("%v: exit %d\n%s", args, r.code, r.stdout)
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		if r := runCLI(t, "", args...); r.code != 0 || !strings.Contains(r.stdout, "commands:") {
			t.Errorf("%v: exit %d", args, r.code)
		}
	}
	if r := runCLI(t, "", "help", "nope"); r.code != 2 {
		t.Errorf("help of an unknown verb: exit %d, want 2", r.code)
	}
	for _, v := range verbs() {
		if _, ok := verbDocs[v.name]; !ok && v.name != "tui" {
			t.Errorf("verb %s has no --json shape and example in verbDocs", v.name)
		}
	}
}

// mcp and serve are reading verbs too: on a missing workspace they are
// NOT_FOUND before speaking a protocol or listening, and create nothing.
func TestCLI_HostsOnMissingWorkspace(t *testing.T) {
	for _, args := range [][]string{{"mcp"}, {"serve", "--addr", "127.0.0.1:0"}} {
		state := filepath.Join(t.TempDir(), "none")
		r := runCLI(t, "", append(args, "--state", state)...)
		if r.code != 1 || !strings.Contains(r.stderr, "no workspace at") {
			t.Errorf("%v: exit %d %s", args, r.code, r.stderr)
		}
		if _, err := os.Stat(state); err == nil {
			t.Errorf("%v created the state dir", args)
		}
	}
}
