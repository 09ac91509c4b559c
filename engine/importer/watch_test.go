package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace"
)

// TestWatcher: a watched folder's exports are imported once each, a grown
// one again (only its new turns), a file still being written waits for the
// next round, a broken one is reported and tried again only once it
// changes, a stray file is never imported, and the state survives a new
// watcher (a daemon restart).
func TestWatcher(t *testing.T) {
	state := t.TempDir()
	if err := os.MkdirAll(filepath.Join(workspace.MemoryDir(state), workspace.MetaDir, "runtime"), 0o755); err != nil {
		t.Fatal(err)
	}
	watched := t.TempDir()
	rollout := fixture(t, "transcript", "codex", "testdata", "session.jsonl")
	lines := bytes.SplitAfter(rollout, []byte("\n"))
	day := filepath.Join(watched, "sessions", "2025", "10", "14")
	codexFile := write(t, filepath.Join(day, "rollout-2025-10-14T08-02-11-0199e1b2-7c3a-7d41-9f0e-2a6b8c4d1e55.jsonl"), bytes.Join(lines[:len(lines)/2], nil))
	copyTree(t, filepath.Join("..", "..", "transcript", "slack", "testdata", "acme"), filepath.Join(watched, "slack", "acme"))
	write(t, filepath.Join(watched, "notes.txt"), []byte("just notes\n"))

	clock := time.Now().Add(time.Hour) // everything has settled
	w := &Watcher{StateDir: state, Paths: []string{watched, filepath.Join(watched, "missing")}, Now: func() time.Time { return clock }}
	res, err := w.Scan(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range res {
		if r.Err != nil {
			t.Errorf("%s: %v", r.Path, r.Err)
		}
		got[filepath.Base(r.Path)] = r.Result.Imported
	}
	if len(got) != 2 || got["acme"] == 0 || got[filepath.Base(codexFile)] == 0 {
		t.Fatalf("first scan imported %v", got)
	}
	first := got[filepath.Base(codexFile)]
	if again, _ := w.Scan(t.Context()); len(again) != 0 {
		t.Errorf("a scan with nothing changed imported %+v", again)
	}

	// The rollout grew, moments ago: it waits for the next round.
	write(t, codexFile, rollout)
	clock = time.Now()
	if res, _ := w.Scan(t.Context()); len(res) != 0 {
		t.Errorf("a file still being written was imported: %+v", res)
	}
	clock = time.Now().Add(time.Hour)
	res, _ = w.Scan(t.Context())
	if len(res) != 1 || res[0].Path != codexFile || res[0].Err != nil || res[0].Result.Imported != 10-first {
		t.Errorf("grown rollout: %+v (first import %d)", res, first)
	}

	// A broken export fails once, and waits until it changes.
	broken := write(t, filepath.Join(watched, "tg", "result.json"), []byte(`{"name":"x","type":"private_group","id":1,"messages":[{"id":1,"type":"message",`))
	res, _ = w.Scan(t.Context())
	if len(res) != 1 || res[0].Err == nil || !strings.Contains(res[0].Summary(), "tried again when it changes") {
		t.Errorf("broken export: %+v", res)
	}
	if res, _ := w.Scan(t.Context()); len(res) != 0 {
		t.Errorf("an unchanged broken export was tried again: %+v", res)
	}
	write(t, broken, fixture(t, "transcript", "telegram", "testdata", "forum.json"))
	if res, _ := w.Scan(t.Context()); len(res) != 1 || res[0].Err != nil || res[0].Result.Imported == 0 {
		t.Errorf("the repaired export: %+v", res)
	}

	// A new watcher (the daemon restarted) remembers what was imported.
	w2 := &Watcher{StateDir: state, Paths: []string{watched}, Now: func() time.Time { return clock }}
	if res, _ := w2.Scan(t.Context()); len(res) != 0 {
		t.Errorf("after a restart: %+v", res)
	}
}

func TestExpandHome(t *testing.T) {
	home, _ := os.UserHomeDir()
	for in, want := range map[string]string{"~/.codex/sessions": filepath.Join(home, ".codex", "sessions"), "/abs": "/abs", "~x": "~x"} {
		if got, err := ExpandHome(in); err != nil || got != want {
			t.Errorf("ExpandHome(%q) = %q, %v", in, got, err)
		}
	}
}
