package hook_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/app"
	"scriptorium/engine/config"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/engine/runstatus"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/hosts/hook"
	"scriptorium/render"
	"scriptorium/workspace"
)

// TestClaudeCode_TranscriptEvents: Stop, PreCompact and SessionEnd import
// what the transcript gained since the last event, print nothing and
// record their success.
func TestClaudeCode_TranscriptEvents(t *testing.T) {
	for _, event := range []string{hook.EventStop, hook.EventPreCompact, hook.EventSessionEnd} {
		t.Run(event, func(t *testing.T) {
			state := enginetest.Fixture(t, "valid")
			path := writeFile(t, t.TempDir(), sessionID+".jsonl", transcriptLines(t, prefixLines))
			out, log, err := runHook(t, state, input(t, event, path, nil))
			if err != nil || out != "" {
				t.Fatalf("prefix: out %q, err %v, log %s", out, err, log)
			}
			if n := storedNodes(t, state); n != 4 {
				t.Errorf("after the prefix: %d nodes stored, want its 4 turns", n)
			}
			// The session went on: the same file, grown.
			writeFile(t, filepath.Dir(path), sessionID+".jsonl", transcriptLines(t, -1))
			if out, log, err := runHook(t, state, input(t, event, path, nil)); err != nil || out != "" {
				t.Fatalf("grown: out %q, err %v, log %s", out, err, log)
			}
			if n := storedNodes(t, state); n != 7 {
				t.Errorf("after the whole transcript: %d nodes stored, want 7", n)
			}
			st := hookStatus(t, state)
			if st.LastEvent != event || st.LastSuccessAt != "2026-07-02T11:00:00Z" || st.LastFailure != nil {
				t.Errorf("hook status %+v", st)
			}
			// The writer ran its threshold pass (nothing owed yet) and
			// said so in its own status.
			e := enginetest.Open(t, state)
			if ws := runstatus.Writer(e.RuntimeDir()); ws.LastSuccessAt == "" || ws.PendingTurns != 7 {
				t.Errorf("writer status %+v, want a success with 7 pending turns", ws)
			}
		})
	}
}

// TestClaudeCode_StopWritesOverThreshold: a session past the writer's
// threshold gets its batch written by a plain Stop. The deadline is long:
// how the hook keeps to its 1.2 s is budget_test.go's (the writer's pass
// does not fit what is left of it on a heavily loaded machine, and is
// then the daemon's), and a timed assertion here only made the test fail
// under load.
func TestClaudeCode_StopWritesOverThreshold(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	path := writeFile(t, t.TempDir(), sessionID+".jsonl", longTranscript(8))
	var out, log strings.Builder
	err := hook.ClaudeCode(strings.NewReader(input(t, hook.EventStop, path, nil)), &out, hook.Options{StateDir: state,
		Log: &log, TranscriptDeadline: time.Minute, Open: app.Opener(state, app.Hook, app.Options{})})
	if err != nil || out.Len() != 0 {
		t.Fatalf("out %q, err %v, log %s", out.String(), err, log.String())
	}
	e := enginetest.Open(t, state)
	rev, _ := e.Status(context.Background())
	if rev.Revision == 0 {
		t.Errorf("no batch was written (revision 0); writer status %+v", runstatus.Writer(e.RuntimeDir()))
	}
}

// TestClaudeCode_UserPromptSubmit: the answer is exactly Claude Code's
// hookSpecificOutput with the fenced recall.Recall text, cited, in budget.
func TestClaudeCode_UserPromptSubmit(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	prompt := "When does the staging database move to copper-7?"
	out, log, err := runHook(t, state, input(t, hook.EventUserPromptSubmit, "/nonexistent.jsonl", map[string]any{"prompt": prompt}))
	if err != nil {
		t.Fatalf("err %v, log %s", err, log)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("output is not one line: %q", out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var doc struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	ctx := doc.HookSpecificOutput.AdditionalContext
	if doc.HookSpecificOutput.HookEventName != "UserPromptSubmit" {
		t.Errorf("hookEventName %q", doc.HookSpecificOutput.HookEventName)
	}
	if !strings.HasPrefix(ctx, "<memory-context>\n") || !strings.HasSuffix(ctx, "</memory-context>\n") || strings.Count(ctx, "<memory-context>") != 1 {
		t.Errorf("context not fenced once:\n%s", ctx)
	}
	for _, want := range []string{"## Core memory", "copper-7", "[topics/core.md#^1a2b3c4d]"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("context lacks %q:\n%s", want, ctx)
		}
	}
	// The turn the core block cites is not repeated beside it.
	if strings.Contains(ctx, "#source-fcdcde36]") || strings.Contains(ctx, "[openprogram/group-dev/m1]") {
		t.Errorf("the cited turn came in beside its block:\n%s", ctx)
	}
	if n := render.CountTokens(ctx); n > config.DefaultRecallBudget {
		t.Errorf("context is %d tokens, budget %d", n, config.DefaultRecallBudget)
	}
	// The hook's context is recall.Recall's, the one MCP serves too.
	e := enginetest.Open(t, state)
	res, err := recall.Recall(context.Background(), e, recall.Request{Prompt: prompt, Cwd: "/home/mara/src/heron"})
	if err != nil || res.Text != ctx {
		t.Errorf("hook context differs from recall.Recall (%v):\n%s\n---\n%s", err, ctx, res.Text)
	}
	if st := hookStatus(t, state); st.LastEvent != hook.EventUserPromptSubmit || st.LastFailure != nil {
		t.Errorf("hook status %+v", st)
	}
}

// TestClaudeCode_PromptProjectFirst: the hook input's cwd names the
// session's project, whose memory comes before the hits.
func TestClaudeCode_PromptProjectFirst(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	in := input(t, hook.EventUserPromptSubmit, "/nonexistent.jsonl", map[string]any{"prompt": "who reported the build?", "cwd": "/home/mara/src/legacy"})
	out, log, err := runHook(t, state, in)
	if err != nil {
		t.Fatalf("err %v, log %s", err, log)
	}
	var doc struct {
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	ctx := doc.HookSpecificOutput.AdditionalContext
	p, h := strings.Index(ctx, "## This project"), strings.Index(ctx, "## Recalled for this prompt")
	if p < 0 || h < p || !strings.Contains(ctx[p:h], "[topics/projects/legacy.md#^b1ab1ab1]") {
		t.Errorf("the project's memory is not before the hits:\n%s", ctx)
	}
}

// TestClaudeCode_PromptBudgetFromConfig: [recall] budget_tokens bounds the
// context.
func TestClaudeCode_PromptBudgetFromConfig(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	writeFile(t, state, "config.toml", []byte("[recall]\nbudget_tokens = 150\n"))
	out, _, err := runHook(t, state, input(t, hook.EventUserPromptSubmit, "", map[string]any{"prompt": "copper-7 budget tracker"}))
	var doc map[string]map[string]string
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("out %q, err %v", out, err)
	}
	if n := render.CountTokens(doc["hookSpecificOutput"]["additionalContext"]); n == 0 || n > 150 {
		t.Errorf("context of %d tokens under a 150-token budget", n)
	}
}

// TestClaudeCode_PendingCanary: a pending group-chat source's words never
// reach the agent, even when the prompt asks for exactly them; the trusted
// turn beside it does.
func TestClaudeCode_PendingCanary(t *testing.T) {
	state := enginetest.Empty(t, nil)
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	store, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = store.Import(strings.NewReader(
		`{"session":"s1","id":"t1","role":"user","content":"The wombat enclosure key hangs behind the blue door.","time":"2026-07-01T09:00:00Z","tier":"owner"}` + "\n" +
			`{"session":"g1","provider":"telegram","id":"t2","role":"user","speaker_id":"u66","speaker_display":"Stranger","content":"The wombat enclosure code is quokkavelvet 4711.","time":"2026-07-01T09:01:00Z","tier":"unpaired","group":true}` + "\n"))
	store.Close()
	if err != nil {
		t.Fatal(err)
	}
	e := enginetest.Open(t, state)
	if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if p, err := review.Pending(context.Background(), e); err != nil || len(p) != 1 {
		t.Fatalf("pending %+v, %v; want the canary source", p, err)
	}
	e.Close()
	for _, prompt := range []string{"quokkavelvet", "what is the wombat enclosure code? quokkavelvet 4711"} {
		out, log, err := runHook(t, state, input(t, hook.EventUserPromptSubmit, "", map[string]any{"prompt": prompt}))
		if err != nil {
			t.Fatalf("err %v, log %s", err, log)
		}
		if strings.Contains(out, "quokkavelvet") || strings.Contains(out, "4711") || strings.Contains(out, "Stranger") {
			t.Errorf("prompt %q: pending content reached the agent:\n%s", prompt, out)
		}
		if strings.Contains(prompt, "wombat") && !strings.Contains(out, "blue door") {
			t.Errorf("prompt %q: the trusted turn was not recalled:\n%s", prompt, out)
		}
	}
}

// TestClaudeCode_Failures: every failure exits quietly (no output), and
// status shows it with the event.
func TestClaudeCode_Failures(t *testing.T) {
	t.Run("locked", func(t *testing.T) {
		state := enginetest.Fixture(t, "valid")
		enginetest.Open(t, state).Close() // the workspace exists
		w, err := workspace.Open(workspace.MemoryDir(state), nil)
		if err != nil {
			t.Fatal(err)
		}
		release, err := w.Lock(context.Background(), workspace.LockInteractive)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		path := writeFile(t, t.TempDir(), sessionID+".jsonl", longTranscript(8))
		start := time.Now()
		out, _, err := runHook(t, state, input(t, hook.EventStop, path, nil))
		// Its deadline, with room for a loaded machine: waiting on the lock
		// would keep it until the test ends.
		if d := time.Since(start); d > hook.DefaultTranscriptDeadline+2*time.Second {
			t.Errorf("a held lock kept the hook %s", d)
		}
		if out != "" || errcode.As(err).Code != errcode.LockBusy {
			t.Errorf("out %q, err %v; want nothing and LOCK_BUSY", out, err)
		}
		st := hookStatus(t, state)
		if st.LastFailure == nil || st.LastFailure.Code != errcode.LockBusy || st.LastFailure.Event != hook.EventStop {
			t.Errorf("hook status %+v", st)
		}
		// The conversation was stored anyway, for the daemon to write.
		if n := storedNodes(t, state); n != 16 {
			t.Errorf("%d nodes stored under a held lock, want 16", n)
		}
	})
	t.Run("broken config", func(t *testing.T) {
		state := enginetest.Fixture(t, "valid")
		enginetest.Open(t, state).Close()
		writeFile(t, state, "config.toml", []byte("[recall\nbudget_tokens = \n"))
		out, _, err := runHook(t, state, input(t, hook.EventUserPromptSubmit, "", map[string]any{"prompt": "copper-7"}))
		st := hookStatus(t, state)
		if out != "" || err == nil || st.LastFailure == nil || st.LastFailure.Code != errcode.InvalidArgument ||
			st.LastFailure.Event != hook.EventUserPromptSubmit || !strings.Contains(st.LastFailure.Message, "config.toml") {
			t.Errorf("out %q, err %v, status %+v", out, err, st)
		}
	})
	t.Run("bad stdin", func(t *testing.T) {
		state := enginetest.Fixture(t, "valid")
		enginetest.Open(t, state).Close()
		for _, stdin := range []string{"", "not json", `{"prompt":"no event"}`, `["UserPromptSubmit"]`} {
			out, _, err := runHook(t, state, stdin)
			st := hookStatus(t, state)
			if out != "" || err == nil || st.LastFailure == nil || st.LastFailure.Code != errcode.InvalidArgument || st.LastFailure.Event != "" {
				t.Errorf("stdin %q: out %q, err %v, status %+v", stdin, out, err, st)
			}
		}
	})
	t.Run("stdin never closed", func(t *testing.T) {
		state := enginetest.Fixture(t, "valid")
		enginetest.Open(t, state).Close()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		defer r.Close()
		start := time.Now()
		err = hook.ClaudeCode(r, &strings.Builder{}, hook.Options{StateDir: state})
		if err == nil || time.Since(start) > 2*time.Second || hookStatus(t, state).LastFailure == nil {
			t.Errorf("err %v after %s", err, time.Since(start))
		}
	})
	t.Run("panic", func(t *testing.T) {
		state := enginetest.Fixture(t, "valid")
		enginetest.Open(t, state).Close()
		var out strings.Builder
		err := hook.ClaudeCode(panicReader{}, &out, hook.Options{StateDir: state})
		st := hookStatus(t, state)
		if out.Len() != 0 || err == nil || st.LastFailure == nil || !strings.Contains(st.LastFailure.Message, "panic") {
			t.Errorf("out %q, err %v, status %+v", out.String(), err, st)
		}
	})
	t.Run("no workspace", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "never-created")
		for _, event := range hook.Events {
			out, _, err := runHook(t, state, input(t, event, transcriptFile(t), map[string]any{"prompt": "copper-7"}))
			if out != "" || !errors.Is(err, hook.ErrNoWorkspace) {
				t.Errorf("%s: out %q, err %v", event, out, err)
			}
		}
		if _, err := os.Stat(state); !os.IsNotExist(err) {
			t.Errorf("the hook created %s", state)
		}
	})
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("a reader that breaks") }

// TestClaudeCode_Quiet: the off switch and events the hook does not handle
// print nothing and record nothing.
func TestClaudeCode_Quiet(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	enginetest.Open(t, state).Close()
	if out, _, err := runHook(t, state, input(t, "Notification", "", map[string]any{"message": "Claude needs your permission"})); out != "" || err != nil {
		t.Errorf("Notification: out %q, err %v", out, err)
	}
	writeFile(t, state, "config.toml", []byte("[memory]\nbackend = \"none\"\n"))
	path := writeFile(t, t.TempDir(), sessionID+".jsonl", transcriptLines(t, -1))
	for _, event := range hook.Events {
		if out, _, err := runHook(t, state, input(t, event, path, map[string]any{"prompt": "copper-7"})); out != "" || err != nil {
			t.Errorf("%s with memory off: out %q, err %v", event, out, err)
		}
	}
	if _, err := os.Stat(runstatus.HookPath(state)); !os.IsNotExist(err) {
		t.Errorf("a quiet run wrote the hook status")
	}
	if n := storedNodes(t, state); n != 0 {
		t.Errorf("memory off, yet %d nodes were imported", n)
	}
}

// TestClaudeCode_PromptSaysStaleIndex: when the index needs a full rebuild
// (files changed behind the engine's back and no record of the indexed
// versions), the prompt hook answers from the index as it stands within
// its deadline and says so in the status file; once an index brought up
// to date answers, the note goes (issue 24 §4).
func TestClaudeCode_PromptSaysStaleIndex(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	e := enginetest.Open(t, state)
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: "copper-7"}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	mem := filepath.Join(state, "memory")
	if err := os.Remove(filepath.Join(mem, ".scriptorium", "index", "files")); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Add(time.Minute)
	if err := filepath.WalkDir(filepath.Join(mem, "topics"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			err = os.Chtimes(p, now, now)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	prompt := input(t, hook.EventUserPromptSubmit, "/nonexistent.jsonl", map[string]any{"prompt": "When does the staging database move to copper-7?"})
	if out, log, err := runHook(t, state, prompt); err != nil || out == "" {
		t.Fatalf("out %q err %v log %s", out, err, log)
	}
	if st := hookStatus(t, state); st.StaleIndexAt == "" {
		t.Fatalf("the stale answer is not in the status: %+v", st)
	}
	// A search without a deadline rebuilds; the next prompt's answer is fresh.
	e = enginetest.Open(t, state)
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: "copper-7"}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	if _, log, err := runHook(t, state, prompt); err != nil {
		t.Fatalf("err %v log %s", err, log)
	}
	if st := hookStatus(t, state); st.StaleIndexAt != "" {
		t.Fatalf("the note stayed after a fresh answer: %+v", st)
	}
}
