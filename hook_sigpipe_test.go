package main

import (
	"os"
	"os/exec"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
)

// Issue 24: the hook exited 141 (SIGPIPE) when Claude Code had already
// closed its stdout; a hook must exit 0 whatever happens. The context it
// prints goes into a pipe whose reader is gone.
func TestHook_ClosedStdoutExitsZero(t *testing.T) {
	bin := clitest.Binary(t)
	state := fixtureState(t, "valid")
	for _, closeErr := range []bool{false, true} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		r.Close() // nobody reads: every write is EPIPE
		cmd := exec.Command(bin, "hook", "claude-code", "--state", state)
		cmd.Stdin = strings.NewReader(hookInput("When does the staging database move to copper-7?"))
		cmd.Stdout = w
		if closeErr {
			cmd.Stderr = w // the log too
		}
		err = cmd.Run()
		w.Close()
		if err != nil {
			t.Errorf("stderr closed too: %v; exit %v, want 0", closeErr, err)
		}
	}
}
