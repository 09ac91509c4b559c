//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/scale"
	"scriptorium/tests/clitest"
)

// A signal cancels the verb's context; a verb that has not stopped within
// the grace exits as the signal would have ended it, and one that stopped
// in time is left to exit with its own code.
func TestSignalContext_GraceThenExit(t *testing.T) {
	for _, stops := range []bool{false, true} {
		exited := make(chan int, 1)
		ctx, cancel := signalContextWith(200*time.Millisecond, func(code int) { exited <- code })
		if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
			t.Fatal("SIGTERM did not cancel the context")
		}
		if stops {
			cancel()
		}
		select {
		case code := <-exited:
			if stops {
				t.Errorf("a verb that stopped in time was exited with %d", code)
			} else if code != 128+int(syscall.SIGTERM) {
				t.Errorf("exit code %d; want %d", code, 128+int(syscall.SIGTERM))
			}
		case <-time.After(2 * time.Second):
			if !stops {
				t.Error("a verb still running after the grace was not exited")
			}
		}
		cancel()
	}
}

// A one-shot search whose first index build is running stops on SIGTERM
// (it used to run the build to its end, 25 minutes at 1M records) and
// leaves the workspace consistent: the next search builds the index and
// it is fresh.
func TestSearch_SIGTERMDuringFirstBuild(t *testing.T) {
	bin := clitest.Binary(t)
	state := t.TempDir()
	if _, err := scale.Workspace(filepath.Join(state, "memory"), 2000, scale.DefaultSeed); err != nil {
		t.Fatal(err)
	}
	staging := filepath.Join(state, "memory", ".scriptorium", "index", "bleve.new")
	cmd := exec.Command(bin, "search", "kafka logs", "--json", "--state", state)
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	signalled := false
	for !signalled {
		select {
		case err := <-exited:
			t.Skipf("the build ended (%v) before the test saw it staged", err)
		case <-time.After(2 * time.Millisecond):
		}
		if _, err := os.Stat(staging); err == nil {
			signalled = cmd.Process.Signal(syscall.SIGTERM) == nil
		}
	}
	var err error
	select {
	case err = <-exited:
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the search did not exit after SIGTERM")
	}
	if err == nil || strings.Contains(out.String(), `"results"`) {
		t.Errorf("the search ran on after SIGTERM: exit %v, stdout %.200q", err, out.String())
	}
	if r := runCLI(t, "", "search", "kafka logs", "--json", "--state", state); r.code != 0 {
		t.Fatalf("the search after the interrupted one: exit %d %s", r.code, r.stderr)
	}
	r := runCLI(t, "", "status", "--json", "--state", state)
	if idx, _ := oneJSON(t, r.stdout)["index"].(map[string]any); idx["fresh"] != true {
		t.Errorf("the index after the interrupted build and a search: %v", idx)
	}
}
