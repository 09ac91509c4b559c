package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/tests/clitest"
	"scriptorium/workspace/faultfs"
)

// Issue 24, finding 11: bleve writes to Go's default logger, which printed
// "got err removing file: …zap" onto a terminal a TUI owned. An obsolete
// segment (a valid copy of a live one under an unused name) that cannot be
// removed makes bleve log that line on every writable open of the index,
// so a verb that opens the index must put it in the runtime library log,
// and never on stderr.
func TestLibraryLog_NeverOnStderr(t *testing.T) {
	bin := clitest.Binary(t)
	state := filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	tx := `{"base_revision":0,"edits":[{"op":"create","path":"topics/a.md","content":"# A\n\nThe copper kettle. ^0000000a\n"}]}`
	if r := runCLI(t, tx, "update", "-", "--state", state); r.code != 0 {
		t.Fatal(r.stderr)
	}
	store := filepath.Join(state, "memory", ".scriptorium", "index", "bleve", "store")
	segs, _ := filepath.Glob(filepath.Join(store, "*.zap"))
	if len(segs) == 0 {
		t.Fatal("the index has no segment to copy")
	}
	data, err := os.ReadFile(segs[0])
	if err != nil {
		t.Fatal(err)
	}
	trap := filepath.Join(store, "0000000000ff.zap")
	if err := os.WriteFile(trap, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// Unremovable: the immutable flag for root, a read-only directory
	// for anyone else.
	hold := trap
	if os.Geteuid() != 0 {
		hold = store
	}
	undo, _, err := faultfs.MakeReadOnly(hold)
	if err != nil {
		t.Skipf("cannot make %s unremovable here: %v", hold, err)
	}
	defer undo()
	for _, args := range [][]string{{"status"}, {"status", "--json"}} {
		cmd := exec.Command(bin, append(args, "--state", state)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v %s", args, err, stderr.String())
		}
		if strings.Contains(stderr.String(), "removing file") || strings.Contains(stderr.String(), ".zap") {
			t.Errorf("%v printed a library log line on stderr: %s", args, stderr.String())
		}
	}
	data, err = os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "runtime", "library.log"))
	if err != nil || !strings.Contains(string(data), "0000000000ff.zap") {
		t.Errorf("the library log does not hold bleve's line (so the trap did not fire, or the line was lost): %q %v", data, err)
	}
}
