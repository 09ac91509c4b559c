package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/tests/clitest"
	"scriptorium/workspace"
)

// syncBuffer is a bytes.Buffer safe for one writer and one poller.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCLIFlow_UpdateWaitsForLock: `update` is an interactive writer: while
// another writer holds write.lock it says on stderr that it is waiting,
// and it installs once the lock is released.
func TestCLIFlow_UpdateWaitsForLock(t *testing.T) {
	state := fixtureState(t, "valid")
	tx := filepath.Join(t.TempDir(), "tx.json")
	clitest.WriteTx(t, tx, 0, map[string]any{"op": "create", "path": "topics/a.md", "content": "# A\n\nOne. ^f1000001\n"})

	w, err := workspace.Open(filepath.Join(state, "memory"), nil)
	if err != nil {
		t.Fatal(err)
	}
	release, err := w.Lock(context.Background(), workspace.LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"update", tx, "--json", "--state", state}, strings.NewReader(""), &stdout, &stderr)
	}()
	// Wait (without a time limit of its own: go test's -timeout bounds it)
	// until the verb reports that it waits.
	for !strings.Contains(stderr.String(), "waiting for the write lock") {
		select {
		case code := <-done:
			t.Fatalf("update finished (exit %d) while the lock was held: %s %s", code, stdout.String(), stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if _, err := os.Stat(filepath.Join(state, "memory", "topics", "a.md")); err == nil {
		t.Fatal("update wrote while the lock was held")
	}
	release()
	if code := <-done; code != 0 {
		t.Fatalf("update exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	doc := oneJSON(t, stdout.String())
	if doc["revision"].(interface{ String() string }).String() != "1" {
		t.Errorf("update result %s", stdout.String())
	}
}

// TestCLIFlow_Promote: promote needs a terminal or --yes; with --yes it
// promotes once, and a second run is a no-op with no new revision.
func TestCLIFlow_Promote(t *testing.T) {
	state := fixtureState(t, "valid")
	r := runCLI(t, "", "promote", "openprogram/group-dev/m3", "--json", "--state", state)
	if e, _ := oneJSON(t, r.stdout)["error"].(map[string]any); r.code != 1 || e["code"] != "FORBIDDEN" {
		t.Fatalf("promote without a terminal or --yes: exit %d %s", r.code, r.stdout)
	}
	if r := runCLI(t, "", "pending", "--json", "--state", state); strings.Count(r.stdout, `"ref"`) != 2 {
		t.Fatalf("a refused promote changed the pending list: %s", r.stdout)
	}

	r = runCLI(t, "", "promote", "--yes", "openprogram/group-dev/m3", "openprogram/group-dev/m5", "--json", "--state", state)
	if r.code != 0 {
		t.Fatalf("promote --yes: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	doc := oneJSON(t, r.stdout)
	if got := doc["promoted"].([]any); len(got) != 2 {
		t.Errorf("promoted %v", got)
	}
	if got := doc["distilled"].([]any); len(got) != 1 || got[0] != "openprogram/group-dev/m5" {
		t.Errorf("distilled %v, want only the uncited m5", got)
	}
	status := oneJSON(t, runCLI(t, "", "status", "--json", "--state", state).stdout)
	rev := status["revision"]
	if r := runCLI(t, "", "verify", "--state", state); r.code != 0 {
		t.Errorf("verify after promote: %s", r.stdout)
	}
	if r := runCLI(t, "", "get", "^deadbeef", "--json", "--state", state); oneJSON(t, r.stdout)["trust"] != "trusted" {
		t.Errorf("^deadbeef after promoting m3: %s", r.stdout)
	}
	if r := runCLI(t, "", "pending", "--json", "--state", state); strings.Contains(r.stdout, `"ref"`) {
		t.Errorf("pending after promoting everything: %s", r.stdout)
	}

	r = runCLI(t, "", "promote", "--yes", "openprogram/group-dev/m3", "openprogram/group-dev/m5", "--json", "--state", state)
	doc = oneJSON(t, r.stdout)
	if r.code != 0 || len(doc["promoted"].([]any)) != 0 || len(doc["distilled"].([]any)) != 0 {
		t.Errorf("second promote: exit %d %s", r.code, r.stdout)
	}
	if again := oneJSON(t, runCLI(t, "", "status", "--json", "--state", state).stdout); again["revision"] != rev {
		t.Errorf("second promote moved the revision from %v to %v", rev, again["revision"])
	}
	hist := oneJSON(t, runCLI(t, "", "history", "--json", "--state", state).stdout)
	entries := hist["entries"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["kind"] != "promote" {
		t.Errorf("history %v, want one promote install", entries)
	}
}

// TestCLIFlow_OldLayoutMovedOnOpen: the first verb that opens a workspace,
// even read-only verify, moves journal/, wiki/, .state/ and index.sqlite to
// <state>/memory-superseded/ without deleting anything, and leaves topics
// and sources alone.
func TestCLIFlow_OldLayoutMovedOnOpen(t *testing.T) {
	state := fixtureState(t, "valid")
	mem := filepath.Join(state, "memory")
	old := map[string]string{
		"journal/2024-03-15.md": "old journal\n",
		"wiki/Craig.md":         "old wiki\n",
		".state/cursor":         "42\n",
		"index.sqlite":          "not really sqlite",
		"index.sqlite-wal":      "wal",
	}
	for p, c := range old {
		full := filepath.Join(mem, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	topics := treeState(t, filepath.Join(mem, "topics"))
	sources := treeState(t, filepath.Join(mem, "sources"))
	if r := runCLI(t, "", "verify", "--json", "--state", state); r.code != 0 || oneJSON(t, r.stdout)["ok"] != true {
		t.Fatalf("verify: exit %d %s", r.code, r.stdout)
	}
	for p, c := range old {
		if _, err := os.Lstat(filepath.Join(mem, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s is still in the workspace", p)
		}
		data, err := os.ReadFile(filepath.Join(state, "memory-superseded", filepath.FromSlash(p)))
		if err != nil || string(data) != c {
			t.Errorf("%s in memory-superseded: %q, %v", p, data, err)
		}
	}
	if diffTrees(topics, treeState(t, filepath.Join(mem, "topics"))) != "" ||
		diffTrees(sources, treeState(t, filepath.Join(mem, "sources"))) != "" {
		t.Errorf("opening the workspace changed topics or sources")
	}
}

// TestCLIFlow_HelpListsEveryVerb: --help names every verb and flag of the
// command table and exits 0.
func TestCLIFlow_HelpListsEveryVerb(t *testing.T) {
	r := runCLI(t, "", "--help")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("--help: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, v := range verbs() {
		if v.name == "tui" {
			continue
		}
		if !strings.Contains(r.stdout, "\n  "+v.name+" ") {
			t.Errorf("help does not list %s", v.name)
		}
		for _, f := range v.flags {
			if !strings.Contains(r.stdout, "--"+f.name) {
				t.Errorf("help does not list --%s of %s", f.name, v.name)
			}
		}
	}
	for _, code := range []string{"exit status: 0 success, 1 failure or rejection, 2 usage"} {
		if !strings.Contains(r.stdout, code) {
			t.Errorf("help lacks %q", code)
		}
	}
}

// TestCLIFlow_Update: update reads a file or stdin, prints
// {"revision","changed"}, lists every violation of a rejected transaction
// in the error document, and --as paired may only create or append.
func TestCLIFlow_Update(t *testing.T) {
	state := fixtureState(t, "valid")
	tx := `{"base_revision": 0, "edits": [{"op": "create", "path": "topics/a.md", "content": "# A\n\nOne. ^f2000001\n"}]}`
	r := runCLI(t, tx, "update", "-", "--json", "--state", state)
	if r.code != 0 {
		t.Fatalf("update from stdin: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if got := canonicalJSON(t, []byte(r.stdout)); got != canonicalJSON(t, []byte(`{"revision":1,"changed":["topics/a.md"]}`)) {
		t.Errorf("update result %s", got)
	}

	bad := `{"base_revision": 1, "edits": [
		{"op": "create", "path": "../escape.md", "content": "x"},
		{"op": "create", "path": "topics/b.md", "content": "# B\n\nNo id.\n"}]}`
	r = runCLI(t, bad, "update", "-", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	e, _ := doc["error"].(map[string]any)
	if r.code != 1 || e == nil || e["code"] != "REJECTED" {
		t.Fatalf("bad transaction: exit %d %s", r.code, r.stdout)
	}
	checkErrorDoc(t, e)
	if vs, _ := e["violations"].([]any); len(vs) != 2 {
		t.Errorf("violations %v, want both listed", e["violations"])
	}
	r = runCLI(t, bad, "update", "-", "--state", state)
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "../escape.md") || !strings.Contains(r.stderr, "topics/b.md") {
		t.Errorf("text rejection: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}

	rewrite := `{"base_revision": 1, "edits": [{"op": "replace", "path": "topics/a.md", "content": "# A\n\nRewritten. ^f2000001\n"}]}`
	r = runCLI(t, rewrite, "update", "-", "--as", "paired", "--json", "--state", state)
	if e, _ := oneJSON(t, r.stdout)["error"].(map[string]any); r.code != 1 || e["code"] != "FORBIDDEN" {
		t.Errorf("paired rewrite: exit %d %s", r.code, r.stdout)
	}
	appendTx := `{"base_revision": 1, "edits": [{"op": "append", "path": "topics/a.md", "content": "Two. ^f2000002\n"}]}`
	r = runCLI(t, appendTx, "--as=paired", "update", "-", "--json", "--state", state)
	if r.code != 0 {
		t.Errorf("paired append: exit %d %s", r.code, r.stdout)
	}
	data, _ := os.ReadFile(filepath.Join(state, "memory", "topics", "a.md"))
	if string(data) != "# A\n\nOne. ^f2000001\n\nTwo. ^f2000002\n" {
		t.Errorf("topics/a.md holds %q", data)
	}
	hist := oneJSON(t, runCLI(t, "", "history", "--json", "--state", state).stdout)["entries"].([]any)
	if len(hist) != 2 || hist[0].(map[string]any)["actor"] != "paired" || hist[1].(map[string]any)["actor"] != "owner" {
		t.Errorf("history %v", hist)
	}
	for _, h := range hist {
		keys := []string{}
		for k := range h.(map[string]any) {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"actor", "changed", "kind", "revision", "time"}) {
			t.Errorf("history entry fields %v", keys)
		}
	}
}

// TestCLIFlow_BackgroundWriterGivesUp: `write` is a background writer:
// while another writer holds write.lock it gives up after 1 s with
// LOCK_BUSY (retryable) instead of waiting.
func TestCLIFlow_BackgroundWriterGivesUp(t *testing.T) {
	state := fixtureState(t, "valid")
	turns := filepath.Join(t.TempDir(), "turns.jsonl")
	if err := os.WriteFile(turns, []byte(`{"session":"s1","id":"m1","role":"user","content":"remember the milk","time":"2026-01-01T10:00:00Z","tier":"owner"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, "", "import", turns, "--state", state); r.code != 0 {
		t.Fatalf("import: exit %d %s", r.code, r.stderr)
	}
	w, err := workspace.Open(filepath.Join(state, "memory"), nil)
	if err != nil {
		t.Fatal(err)
	}
	release, err := w.Lock(context.Background(), workspace.LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	r := runCLI(t, "", "write", "--force", "--json", "--state", state)
	e, _ := oneJSON(t, r.stdout)["error"].(map[string]any)
	if r.code != 1 || e == nil || e["code"] != "LOCK_BUSY" || e["retryable"] != true {
		t.Errorf("write under a held lock: exit %d %s", r.code, r.stdout)
	}
}
