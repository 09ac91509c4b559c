package hook_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/hosts/hook"
	"scriptorium/workspace"
)

// sessionID is the session of testdata/claude-code's transcript.
const sessionID = "7c2f4e1a-93b8-4d6e-a1f0-5b8c2d9e4f31"

// prefixLines is where the transcript's first exchange ends: the prefix a
// hook sees before the session goes on.
const prefixLines = 9

// transcriptFile is the realistic Claude Code transcript shared with the
// CLI's import tests.
func transcriptFile(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "claude-code", sessionID+".jsonl")
}

// transcriptLines returns the first n lines of the transcript (all for n<0).
func transcriptLines(t *testing.T, n int) []byte {
	t.Helper()
	data, err := os.ReadFile(transcriptFile(t))
	if err != nil {
		t.Fatal(err)
	}
	if n < 0 {
		return data
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	return bytes.Join(lines[:n], nil)
}

// writeFile writes data to a fresh file in dir.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// input is the JSON Claude Code writes to the hook for an event.
func input(t *testing.T, event, transcript string, extra map[string]any) string {
	t.Helper()
	in := map[string]any{
		"session_id": sessionID, "transcript_path": transcript, "cwd": "/home/mara/src/heron",
		"hook_event_name": event,
	}
	switch event {
	case hook.EventStop:
		in["stop_hook_active"] = false
	case hook.EventPreCompact:
		in["trigger"], in["custom_instructions"] = "auto", ""
	case hook.EventSessionEnd:
		in["reason"] = "prompt_input_exit"
	}
	for k, v := range extra {
		in[k] = v
	}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runHook runs the hook on stdin and returns stdout, the log and the error.
func runHook(t *testing.T, state, stdin string) (string, string, error) {
	t.Helper()
	var out, log bytes.Buffer
	now := func() time.Time { return time.Date(2026, 7, 2, 11, 0, 0, 0, time.UTC) }
	// A long transcript deadline: these tests are about what each event
	// does; how the hook keeps to its 1.2 s is budget_test.go's, and on a
	// heavily loaded machine the writer's pass does not fit in it.
	err := hook.ClaudeCode(strings.NewReader(stdin), &out, hook.Options{StateDir: state, Log: &log, Now: now,
		TranscriptDeadline: time.Minute, Open: app.Opener(state, app.Hook, app.Options{Now: now})})
	return out.String(), log.String(), err
}

// hookStatus reads the hook status file as status reports it.
func hookStatus(t *testing.T, state string) result.HookStatus {
	t.Helper()
	var st result.HookStatus
	data, err := os.ReadFile(engine.HookStatusPath(state))
	if err != nil {
		return st
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatalf("hook status: %v\n%s", err, data)
	}
	return st
}

// storedNodes is how many nodes sessions.db holds for the test session.
func storedNodes(t *testing.T, state string) int {
	t.Helper()
	if _, err := os.Stat(workspace.SessionsDB(state)); err != nil {
		return 0
	}
	store, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ss, err := store.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.Provider == "claude-code" && s.ID == sessionID {
			return s.Nodes
		}
	}
	return 0
}

// longTranscript is a Claude Code transcript of the test session with n
// exchanges of about 1,000 tokens each: enough to pass the writer's 16,000
// token threshold, so a Stop must install a batch.
func longTranscript(n int) []byte {
	var b bytes.Buffer
	parent := "null"
	for i := 0; i < 2*n; i++ {
		uuid := fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1)
		typ, msg := "user", fmt.Sprintf(`{"role":"user","content":%q}`, filler(i))
		if i%2 == 1 {
			typ = "assistant"
			msg = fmt.Sprintf(`{"id":"msg_%d","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":%q}]}`, i, filler(i))
		}
		fmt.Fprintf(&b, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/home/mara/src/heron","sessionId":%q,"version":"1.0.112","type":%q,"message":%s,"uuid":%q,"timestamp":"2026-07-02T10:%02d:%02d.000Z"}`+"\n",
			parent, sessionID, typ, msg, uuid, i/60, i%60)
		parent = `"` + uuid + `"`
	}
	return b.Bytes()
}

// filler is about 1,000 tokens of distinct words.
func filler(i int) string {
	var b strings.Builder
	for j := 0; j < 500; j++ {
		fmt.Fprintf(&b, "word%dx%d ", i, j)
	}
	return b.String()
}
