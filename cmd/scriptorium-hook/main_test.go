package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/result/prompt"
	"scriptorium/tests/clitest"
)

// TestMain removes the CLI binary clitest.Binary builds.
func TestMain(m *testing.M) {
	os.Unsetenv("SCRIPTORIUM_STATE")
	code := m.Run()
	clitest.RemoveBinary()
	os.Exit(code)
}

// build builds this program beside the CLI clitest built, where it looks
// for the CLI first.
func build(t *testing.T) (client, cli string) {
	t.Helper()
	cli = clitest.Binary(t)
	client = filepath.Join(filepath.Dir(cli), "scriptorium-hook")
	cmd := exec.Command("go", "build", "-o", client, "./cmd/scriptorium-hook")
	cmd.Dir = clitest.ModuleRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return client, cli
}

// hookRun runs bin with args and the event on stdin, under
// GODEBUG=inittrace=1: the runtime then names on stderr every package it
// initialises, which says whether the CLI (it links bleve) ran.
func hookRun(t *testing.T, bin, event string, args ...string) (stdout string, cliRan bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(event)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", bin, args, err, errb.String())
	}
	return out.String(), strings.Contains(errb.String(), "init github.com/blevesearch/bleve")
}

func event(t *testing.T, name string, fields map[string]any) string {
	t.Helper()
	in := map[string]any{"session_id": "7c2f4e1a-93b8-4d6e-a1f0-5b8c2d9e4f31", "cwd": "/home/mara/src/heron",
		"transcript_path": "/nonexistent.jsonl", "hook_event_name": name}
	for k, v := range fields {
		in[k] = v
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(data) + "\n"
}

func hookStatus(t *testing.T, state string) prompt.HookStatus {
	t.Helper()
	var st prompt.HookStatus
	data, err := os.ReadFile(prompt.HookPath(state))
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		t.Fatalf("hook status: %v", err)
	}
	return st
}

// TestClient_AsTheCLI: with a long-lived process serving the socket, this
// program answers a prompt itself (the CLI does not run) with exactly the
// bytes `scriptorium hook claude-code` prints, and records the success as
// the CLI does; without one, or for another event, it hands the event to
// the CLI, which answers as it always does.
func TestClient_AsTheCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and this program, runs serve")
	}
	client, cli := build(t)
	state := enginetest.Fixture(t, "valid")
	ev := event(t, "UserPromptSubmit", map[string]any{"prompt": "When does the staging database move to copper-7?"})

	// No server: the CLI answers, handed the event by exec.
	want, _ := hookRun(t, cli, ev, "hook", "claude-code", "--state", state)
	if !strings.Contains(want, `"additionalContext":"<memory-context>`) || !strings.Contains(want, "copper-7") {
		t.Fatalf("the CLI's answer holds no context: %q", want)
	}
	got, cliRan := hookRun(t, client, ev, "claude-code", "--state", state)
	if got != want || !cliRan {
		t.Fatalf("no server: the client printed (CLI ran: %v)\n%q\nthe CLI\n%q", cliRan, got, want)
	}

	// A long paste (more than a pipe holds) is handed on whole.
	long := event(t, "UserPromptSubmit", map[string]any{"prompt": strings.Repeat("staging database copper-7 ", 8000)})
	wantLong, _ := hookRun(t, cli, long, "hook", "claude-code", "--state", state)
	if got, cliRan := hookRun(t, client, long, "claude-code", "--state", state); got != wantLong || !cliRan || !strings.Contains(got, "copper-7") {
		t.Fatalf("a %d-byte event: the client printed (CLI ran: %v)\n%.200q\nthe CLI\n%.200q", len(long), cliRan, got, wantLong)
	}

	clitest.StartServe(t, cli, state)
	deadline := time.Now().Add(60 * time.Second)
	for {
		got, cliRan = hookRun(t, client, ev, "claude-code", "--state="+state)
		if !cliRan {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the client never answered from the server")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got != want {
		t.Fatalf("served: the client printed\n%q\nthe CLI\n%q", got, want)
	}
	// The success is recorded by the client itself, as the CLI records it.
	if err := os.Remove(prompt.HookPath(state)); err != nil {
		t.Fatal(err)
	}
	if got, cliRan = hookRun(t, client, ev, "claude-code", "--state", state); got != want || cliRan {
		t.Fatalf("served again: CLI ran %v, printed %q", cliRan, got)
	}
	if st := hookStatus(t, state); st.LastEvent != "UserPromptSubmit" || st.LastSuccessAt == "" || st.LastFailure != nil {
		t.Errorf("hook status after a served prompt: %+v", st)
	}
	if again, _ := hookRun(t, cli, ev, "hook", "claude-code", "--state", state); again != want {
		t.Fatalf("served: the CLI printed\n%q\nalone\n%q", again, want)
	}

	// Another event is the CLI's, served or not: a Stop without a
	// transcript is its failure to record, read from the event handed on.
	if out, cliRan := hookRun(t, client, event(t, "Stop", map[string]any{"transcript_path": ""}), "claude-code", "--state", state); out != "" || !cliRan {
		t.Errorf("Stop: printed %q, CLI ran %v", out, cliRan)
	}
	if st := hookStatus(t, state); st.LastFailure == nil || st.LastFailure.Event != "Stop" || !strings.Contains(st.LastFailure.Message, "transcript_path") {
		t.Errorf("hook status after a Stop without a transcript: %+v", st.LastFailure)
	}
}
