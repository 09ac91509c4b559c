package hook_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"scriptorium/app"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/runstatus"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/hosts/hook"
	"scriptorium/workspace"
)

// codexSession is the session of transcript/codex's realistic rollout.
const codexSession = "0199e1b2-7c3a-7d41-9f0e-2a6b8c4d1e55"

func codexRollout(t *testing.T) []byte {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "transcript", "codex", "testdata", "session.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// notification is what Codex passes its notify program for a turn.
func notification(t *testing.T, thread string) string {
	t.Helper()
	last := "Done: the retry loop backs off now."
	data, err := json.Marshal(hook.CodexNotification{Type: hook.CodexTurnComplete, ThreadID: thread, TurnID: "7",
		Cwd: "/home/mara/src/tidepool", InputMessages: []string{"fix the retry loop"}, LastAssistantMessage: &last})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func runCodex(t *testing.T, state, home, arg string) (string, error) {
	t.Helper()
	var log bytes.Buffer
	now := func() time.Time { return time.Date(2026, 7, 2, 11, 0, 0, 0, time.UTC) }
	err := hook.Codex(arg, hook.CodexOptions{CodexHome: home, Options: hook.Options{StateDir: state, Log: &log, Now: now,
		Open: app.Opener(state, app.Hook, app.Options{Now: now})}})
	return log.String(), err
}

func codexNodes(t *testing.T, state string) int {
	t.Helper()
	store, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ss, _ := store.Sessions()
	for _, s := range ss {
		if s.Provider == "codex" && s.ID == codexSession {
			return s.Nodes
		}
	}
	return 0
}

// TestCodex_TurnComplete: the notification of a finished turn imports the
// session's rollout, found by its thread id under sessions/YYYY/MM/DD; a
// grown rollout adds only its new turns; success is recorded.
func TestCodex_TurnComplete(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	home := t.TempDir()
	full := codexRollout(t)
	lines := bytes.SplitAfter(full, []byte("\n"))
	dir := filepath.Join(home, "sessions", "2025", "10", "14")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// An older session of another day must not be taken for it.
	writeFile(t, filepath.Join(home, "sessions"), "stray.jsonl", []byte("{}\n"))
	path := writeFile(t, dir, "rollout-2025-10-14T08-02-11-"+codexSession+".jsonl", bytes.Join(lines[:len(lines)/2], nil))
	if log, err := runCodex(t, state, home, notification(t, codexSession)); err != nil {
		t.Fatalf("first turn: %v\n%s", err, log)
	}
	first := codexNodes(t, state)
	if first == 0 {
		t.Fatal("nothing imported")
	}
	writeFile(t, dir, filepath.Base(path), full)
	if log, err := runCodex(t, state, home, notification(t, codexSession)); err != nil {
		t.Fatalf("grown: %v\n%s", err, log)
	}
	if n := codexNodes(t, state); n != 10 || n <= first {
		t.Errorf("after the whole rollout: %d nodes (first %d), want the rollout's 10 turns", n, first)
	}
	st := hookStatus(t, state)
	if st.LastEvent != "codex agent-turn-complete" || st.LastFailure != nil || st.LastSuccessAt != "2026-07-02T11:00:00Z" {
		t.Errorf("hook status %+v", st)
	}
	e := enginetest.Open(t, state)
	if ws := runstatus.Writer(e.RuntimeDir()); ws.LastSuccessAt == "" {
		t.Errorf("the writer's threshold pass did not run: %+v", ws)
	}
}

// TestCodex_Failures: a missing rollout, a thread id that is no id and a
// broken argument are recorded failures; another notification type, no
// workspace and the off switch do nothing.
func TestCodex_Failures(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	home := t.TempDir()
	for _, c := range []struct {
		arg  string
		code errcode.Code
		msg  string
	}{
		{notification(t, "0199e1b2-0000-0000-0000-000000000000"), errcode.NotFound, "no rollout of Codex session 0199e1b2-0000-0000-0000-000000000000"},
		{notification(t, "../../etc/passwd"), errcode.InvalidArgument, "is not a Codex session id"},
		{"not json", errcode.InvalidArgument, "not the JSON Codex's notify sends"},
	} {
		_, err := runCodex(t, state, home, c.arg)
		if e := errcode.As(err); err == nil || e.Code != c.code || !strings.Contains(e.Message, c.msg) {
			t.Errorf("%s: %v", c.arg, err)
		}
		if st := hookStatus(t, state); st.LastFailure == nil || !strings.Contains(st.LastFailure.Message, c.msg) {
			t.Errorf("%s: not recorded: %+v", c.arg, st)
		}
	}
	if _, err := runCodex(t, state, home, `{"type":"agent-turn-start","thread-id":"x"}`); err != nil {
		t.Errorf("another type: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "never-created")
	if _, err := runCodex(t, empty, home, notification(t, codexSession)); !errors.Is(err, hook.ErrNoWorkspace) {
		t.Errorf("no workspace: %v", err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("the hook created %s", empty)
	}
	writeFile(t, state, "config.toml", []byte("[memory]\nbackend = \"none\"\n"))
	if _, err := runCodex(t, state, home, "not json either"); err == nil {
		t.Error("a broken argument is still a failure with memory off")
	}
}

// TestFindRollout: the newest day comes first, archived sessions are
// found too, and a thread id is never a path.
func TestFindRollout(t *testing.T) {
	home := t.TempDir()
	id := "0199aaaa-1111-7222-8333-444455556666"
	for _, d := range []string{"2025/09/30", "2025/10/02"} {
		if err := os.MkdirAll(filepath.Join(home, "sessions", filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	want := writeFile(t, filepath.Join(home, "sessions", "2025", "10", "02"), "rollout-2025-10-02T09-00-00-"+id+".jsonl", []byte("{}\n"))
	writeFile(t, filepath.Join(home, "sessions", "2025", "09", "30"), "rollout-2025-09-30T09-00-00-"+id+".jsonl", []byte("{}\n"))
	if got, err := hook.FindRollout(home, id); err != nil || got != want {
		t.Errorf("FindRollout = %s, %v; want %s", got, err, want)
	}
	other := "0199bbbb-1111-7222-8333-444455556666"
	if err := os.MkdirAll(filepath.Join(home, "archived_sessions"), 0o755); err != nil {
		t.Fatal(err)
	}
	archived := writeFile(t, filepath.Join(home, "archived_sessions"), "rollout-2025-08-01T09-00-00-"+other+".jsonl", []byte("{}\n"))
	if got, err := hook.FindRollout(home, other); err != nil || got != archived {
		t.Errorf("archived: %s, %v", got, err)
	}
	if _, err := hook.FindRollout(home, "*"); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("a glob as id: %v", err)
	}
}
