package main

import (
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func noEnv(string) string { return "" }

func TestRun_CommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{"--state", "a", "--profile", "b"}, 2, "scriptorium: "},
		{[]string{"--nope"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-h"}, 0, "-state"},
	} {
		var stderr strings.Builder
		if code := run(c.args, noEnv, &stderr); code != c.code || !strings.Contains(stderr.String(), c.say) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr.String(), c.code, c.say)
		}
	}
}

// The TUI never creates a workspace: the CLI asks the owner first.
func TestRun_MissingWorkspace(t *testing.T) {
	state := filepath.Join(t.TempDir(), "none")
	var stderr strings.Builder
	code := run([]string{"--state", state}, noEnv, &stderr)
	want := "scriptorium: no workspace at " + filepath.Join(state, "memory")
	if code != 1 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the state dir was created: %v", err)
	}
}

// Issue 24, finding 11: library log lines go to runtime/tui.log, routed
// before the engine opens, never to the terminal the TUI owns.
func TestRouteLogs(t *testing.T) {
	state := t.TempDir()
	rt := filepath.Join(state, "memory", ".scriptorium", "runtime")
	if err := os.MkdirAll(rt, 0o700); err != nil {
		t.Fatal(err)
	}
	var before strings.Builder
	log.SetOutput(&before)
	defer log.SetOutput(os.Stderr)
	restore := routeLogs(state)
	log.Printf("got err removing file: 000000000046.zap")
	restore()
	data, err := os.ReadFile(filepath.Join(rt, "tui.log"))
	if err != nil || !strings.Contains(string(data), "000000000046.zap") || before.Len() != 0 {
		t.Errorf("tui.log %q (%v), previous output %q", data, err, before.String())
	}
	if log.Writer() != io.Writer(&before) {
		t.Error("the previous log output was not restored")
	}
}
