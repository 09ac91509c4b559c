package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 24: a memory is private. Archives, topics, state.db,
// embeddings.db, the index, the manifest and the runtime files were 0644
// in 0755 folders (only sessions.db was 0600). Every verb that writes now
// leaves the state dir 0700 and every file in it 0600.
func TestPermissions_Private(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	var turns strings.Builder
	for i := 0; i < 4; i++ {
		b, _ := json.Marshal(map[string]any{"session": "s1", "provider": "telegram", "id": fmt.Sprint(i + 1), "role": "user",
			"content": fmt.Sprintf("The copper kettle %d is on the shelf.", i), "time": fmt.Sprintf("2026-08-10T12:0%d:00Z", i),
			"speaker_id": "u1", "speaker_display": "Ann", "tier": "owner"})
		turns.WriteString(string(b) + "\n")
	}
	b, _ := json.Marshal(map[string]any{"session": "g1", "provider": "telegram", "id": "9", "role": "user", "content": "pending words",
		"time": "2026-08-10T13:00:00Z", "speaker_id": "u9", "speaker_display": "Eve", "tier": "unpaired", "group": true})
	turns.WriteString(string(b) + "\n")
	steps := []struct {
		stdin string
		args  []string
	}{
		{turns.String(), []string{"import", "-"}},
		{"", []string{"write", "--force"}},
		{`{"op":"create","path":"topics/deep/er/a.md","content":"# A\n\nOne. ^0a0a0a01\n"}`, []string{"update", "-"}},
		{`{"op":"create","path":"topics/core.md","content":"# Core\n\nRule. ^0a0a0a02\n"}`, []string{"update", "-", "--as", "paired", "--propose"}},
		{"", []string{"search", "copper"}},
		{"", []string{"core"}},
		{"", []string{"sleep", "--propose"}},
		{"", []string{"status"}},
		{"", []string{"verify"}},
	}
	for _, s := range steps {
		if s.args[0] == "update" {
			s.stdin = fmt.Sprintf(`{"base_revision":%d,"edits":[%s]}`, currentRevision(t, state), s.stdin)
		}
		if r := runCLI(t, s.stdin, append(s.args, "--state", state)...); r.code != 0 {
			t.Fatalf("%v: exit %d %s %s", s.args, r.code, r.stdout, r.stderr)
		}
	}
	loose := looseModes(t, state)
	if len(loose) > 0 {
		t.Errorf("not private (want dirs 0700, files 0600):\n%s", strings.Join(loose, "\n"))
	}
}

// looseModes lists every path under root that group or others can use.
func looseModes(t *testing.T, root string) []string {
	t.Helper()
	var loose []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o077 != 0 {
			rel, _ := filepath.Rel(root, p)
			loose = append(loose, fmt.Sprintf("%v %s", fi.Mode().Perm(), rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return loose
}

// A state dir made before this (or by hand) with looser modes is tightened
// by the next verb, which says so on stderr once.
func TestPermissions_TightensWithNotice(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	tx := `{"base_revision":0,"edits":[{"op":"create","path":"topics/a.md","content":"# A\n\nOne. ^0a0a0a01\n"}]}`
	if r := runCLI(t, tx, "update", "-", "--state", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	// A file of the agent runtime that shares the state dir is not ours.
	agent := filepath.Join(state, "agent.json")
	if err := os.WriteFile(agent, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type()&fs.ModeSymlink == 0 {
			if d.IsDir() {
				os.Chmod(p, 0o755)
			} else {
				os.Chmod(p, 0o644)
			}
		}
		return nil
	})
	r := runCLI(t, "", "status", "--json", "--state", state)
	if r.code != 0 {
		t.Fatal(r.stderr)
	}
	if !strings.Contains(r.stderr, "tightened") || !strings.Contains(r.stderr, state) {
		t.Errorf("no notice on stderr: %q", r.stderr)
	}
	oneJSON(t, r.stdout) // stdout stays one JSON document
	if loose := looseModes(t, state); len(loose) != 1 || !strings.HasSuffix(loose[0], "agent.json") {
		t.Errorf("want only agent.json left as it was, got:\n%s", strings.Join(loose, "\n"))
	}
	// A directory without a workspace is never touched (a mistyped
	// --state must not chmod a home directory).
	other := t.TempDir()
	os.Chmod(other, 0o755)
	os.WriteFile(filepath.Join(other, "notes.txt"), nil, 0o644)
	runCLI(t, "", "status", "--state", other)
	if fi, _ := os.Stat(filepath.Join(other, "notes.txt")); fi.Mode().Perm() != 0o644 {
		t.Errorf("a state dir without a workspace was tightened: %v", fi.Mode())
	}
	if r := runCLI(t, "", "status", "--state", state); strings.Contains(r.stderr, "tightened") {
		t.Errorf("a second notice for nothing: %q", r.stderr)
	}
}
