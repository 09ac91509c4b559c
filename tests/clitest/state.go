package clitest

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"scriptorium/workspace/treetest"
)

// CopyState copies the state dir base into a fresh temp dir and returns
// the copy, so a test can change it and others still start from base.
func CopyState(t *testing.T, base string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(base, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// SleepState is a state dir holding the sleep pass's merge fixture: two
// blocks a pass merges.
func SleepState(t *testing.T) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	src := filepath.Join(ModuleRoot(), "engine", "sleep", "testdata", "sleep", "merge", "memory")
	if err := treetest.CopyTree(src, filepath.Join(state, "memory")); err != nil {
		t.Fatal(err)
	}
	return state
}

// WriteTx writes a transaction file for `update`.
func WriteTx(t *testing.T, path string, base int, edits ...map[string]any) {
	t.Helper()
	data, err := json.Marshal(map[string]any{"base_revision": base, "edits": edits})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Revision is the workspace's revision as `status --json` reports it.
func Revision(t *testing.T, run Runner, state string) int64 {
	t.Helper()
	var st struct {
		Revision *int64 `json:"revision"`
	}
	out := run.Must(t, "status", "--json", "--state", state).Stdout
	if err := json.Unmarshal([]byte(out), &st); err != nil || st.Revision == nil {
		t.Fatalf("status --json holds no revision: %v\n%s", err, out)
	}
	return *st.Revision
}

// Killed reports whether a process ended by SIGKILL (a crash point's
// self-kill, or the test's).
func Killed(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
}
