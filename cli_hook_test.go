package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookInput is Claude Code's UserPromptSubmit input.
func hookInput(prompt string) string {
	data, _ := json.Marshal(map[string]any{"session_id": ccSession, "transcript_path": "/home/mara/.claude/projects/-home-mara-src-heron/" + ccSession + ".jsonl",
		"cwd": "/home/mara/src/heron", "hook_event_name": "UserPromptSubmit", "prompt": prompt})
	return string(data)
}

// TestHook_AlwaysExitsZero: whatever is wrong, `hook claude-code` exits 0
// with nothing on stdout, so Claude Code never blocks or breaks a prompt.
func TestHook_AlwaysExitsZero(t *testing.T) {
	state := fixtureState(t, "valid")
	cases := []struct {
		name  string
		stdin string
		args  []string
	}{
		{"bad stdin", "not json", []string{"hook", "claude-code", "--state", state}},
		{"empty stdin", "", []string{"hook", "claude-code", "--state", state}},
		{"unknown flag", hookInput("copper-7"), []string{"hook", "claude-code", "--state", state, "--frobnicate"}},
		{"flag without value", hookInput("copper-7"), []string{"hook", "claude-code", "--state"}},
		{"state and profile", hookInput("copper-7"), []string{"--state", state, "--profile", "w", "hook", "claude-code"}},
		{"no workspace", hookInput("copper-7"), []string{"hook", "claude-code", "--state", filepath.Join(t.TempDir(), "none")}},
		{"json flag", "{", []string{"--json", "hook", "claude-code", "--state", state}},
	}
	for _, c := range cases {
		r := runCLI(t, c.stdin, c.args...)
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q", c.name, r.code, r.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(t.TempDir(), "none")); !os.IsNotExist(err) {
		t.Errorf("the hook created a state dir")
	}
	// The failures it could record are in status.
	doc := oneJSON(t, runCLI(t, "", "status", "--json", "--state", state).stdout)
	f, _ := doc["hook"].(map[string]any)["last_failure"].(map[string]any)
	if f == nil || f["code"] != "INVALID_ARGUMENT" || f["event"] != "" || !strings.Contains(f["message"].(string), "not the JSON") {
		t.Errorf("status hook %v", doc["hook"])
	}
	if r := runCLI(t, "", "status", "--state", state); !strings.Contains(r.stdout, "hook       last success (none)") ||
		!strings.Contains(r.stdout, "last failure") {
		t.Errorf("human status:\n%s", r.stdout)
	}
}

// TestHook_PromptContext: through the CLI, UserPromptSubmit prints one
// hookSpecificOutput line with the fenced context.
func TestHook_PromptContext(t *testing.T) {
	state := fixtureState(t, "valid")
	r := runCLI(t, hookInput("When does the staging database move to copper-7?"), "hook", "claude-code", "--state", state)
	var doc struct {
		Out struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &doc) != nil || doc.Out.Event != "UserPromptSubmit" ||
		!strings.HasPrefix(doc.Out.Context, "<memory-context>") || !strings.Contains(doc.Out.Context, "copper-7") {
		t.Errorf("exit %d, stdout %s", r.code, r.stdout)
	}
	st := oneJSON(t, runCLI(t, "", "status", "--json", "--state", state).stdout)["hook"].(map[string]any)
	if st["last_event"] != "UserPromptSubmit" || st["last_success_at"] == "" || st["last_failure"] != nil {
		t.Errorf("status hook %v", st)
	}
}

// TestHook_Install: install writes the four events into the user's
// settings with this binary's path, twice is once, --print writes nothing,
// --project writes ./.claude/settings.json and --state is baked in.
func TestHook_Install(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	bin, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	settings := filepath.Join(home, ".claude", "settings.json")

	r := runCLI(t, "", "hook", "install", "claude-code", "--print")
	if r.code != 0 || !strings.Contains(r.stdout, `"UserPromptSubmit"`) || !strings.Contains(r.stdout, bin+" hook claude-code") {
		t.Errorf("--print: exit %d %s", r.code, r.stdout)
	}
	if _, err := os.Stat(settings); !os.IsNotExist(err) {
		t.Errorf("--print wrote %s", settings)
	}

	r = runCLI(t, "", "hook", "install", "claude-code", "--json")
	doc := oneJSON(t, r.stdout)
	if r.code != 0 || doc["path"] != settings || len(doc["added"].([]any)) != 4 || doc["backup"] != "" {
		t.Fatalf("install: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	first, _ := os.ReadFile(settings)
	r = runCLI(t, "", "hook", "install", "claude-code", "--user")
	if again, _ := os.ReadFile(settings); r.code != 0 || string(again) != string(first) || !strings.Contains(r.stdout, "nothing changed") {
		t.Errorf("second install: exit %d %s", r.code, r.stdout)
	}

	project := t.TempDir()
	t.Chdir(project)
	r = runCLI(t, "", "hook", "install", "claude-code", "--project", "--state", "st")
	data, err := os.ReadFile(filepath.Join(project, ".claude", "settings.json"))
	if r.code != 0 || err != nil || !strings.Contains(string(data), bin+" hook claude-code --state "+filepath.Join(project, "st")) {
		t.Errorf("--project: exit %d %s %s\n%s", r.code, r.stdout, r.stderr, data)
	}

	for _, args := range [][]string{{"hook"}, {"hook", "install"}, {"hook", "install", "cursor"}, {"hook", "install", "claude-code", "--user", "--project"}} {
		if r := runCLI(t, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}

// TestHook_Help: hook --help describes the events, the budget and install.
func TestHook_Help(t *testing.T) {
	r := runCLI(t, "", "hook", "--help")
	for _, want := range []string{"UserPromptSubmit", "Stop, PreCompact, SessionEnd", "budget_tokens", "--project", "--print", "exits 0"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("hook --help lacks %q", want)
		}
	}
}

// TestHook_Codex: `hook codex` exits 0 with nothing on stdout whatever its
// argument, and `hook install codex` sets Codex's notify program once.
func TestHook_Codex(t *testing.T) {
	state := fixtureState(t, "valid")
	codexHome := t.TempDir()
	t.Setenv("CODEX_HOME", codexHome)
	for _, args := range [][]string{
		{"hook", "codex", "--state", state},
		{"hook", "codex", "--state", state, "not json"},
		{"hook", "codex", "--state", state, `{"type":"agent-turn-complete","thread-id":"0199e1b2-0000-0000-0000-000000000000"}`},
		{"hook", "codex", "--state", state, "--frobnicate", "{}"},
	} {
		if r := runCLI(t, "", args...); r.code != 0 || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	doc := oneJSON(t, runCLI(t, "", "status", "--json", "--state", state).stdout)
	if f, _ := doc["hook"].(map[string]any)["last_failure"].(map[string]any); f == nil || f["code"] != "NOT_FOUND" {
		t.Errorf("status hook %v", doc["hook"])
	}

	bin, _ := os.Executable()
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	r := runCLI(t, "", "hook", "install", "codex", "--print")
	if want := `notify = ["` + bin + `", "hook", "codex"]`; r.code != 0 || strings.TrimSpace(r.stdout) != want {
		t.Errorf("--print: exit %d %q, want %q", r.code, r.stdout, want)
	}
	r = runCLI(t, "", "hook", "install", "codex", "--json", "--state", state)
	doc = oneJSON(t, r.stdout)
	config := filepath.Join(codexHome, "config.toml")
	if r.code != 0 || doc["path"] != config || doc["added"] != true {
		t.Fatalf("install: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	data, _ := os.ReadFile(config)
	if !strings.Contains(string(data), `"hook", "codex", "--state", "`+state+`"]`) {
		t.Errorf("config.toml:\n%s", data)
	}
	if r := runCLI(t, "", "hook", "install", "codex", "--state", state); r.code != 0 || !strings.Contains(r.stdout, "nothing changed") {
		t.Errorf("second install: exit %d %s", r.code, r.stdout)
	}
	if r := runCLI(t, "", "hook", "install", "codex", "--project"); r.code != 2 {
		t.Errorf("--project: exit %d", r.code)
	}
}

// TestHook_InstallHTTP: --http installs the prompt hook as serve's http
// handler and the other events as commands, with the URL as --http=URL,
// --http URL or serve's default; a URL serve would not answer and --http
// for Codex are usage errors (SPEC §12: exit 2, INVALID_ARGUMENT).
func TestHook_InstallHTTP(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	settings := filepath.Join(home, ".claude", "settings.json")
	type handler struct{ Type, Command, URL string }
	read := func() map[string][]handler {
		t.Helper()
		var s struct {
			Hooks map[string][]struct{ Hooks []handler } `json:"hooks"`
		}
		data, _ := os.ReadFile(settings)
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("settings: %v\n%s", err, data)
		}
		out := map[string][]handler{}
		for ev, gs := range s.Hooks {
			for _, g := range gs {
				out[ev] = append(out[ev], g.Hooks...)
			}
		}
		return out
	}

	r := runCLI(t, "", "hook", "install", "claude-code", "--http", "--print")
	if r.code != 0 || !strings.Contains(r.stdout, `"url": "http://127.0.0.1:8765/hooks/claude-code"`) || !strings.Contains(r.stdout, `"type": "command"`) {
		t.Errorf("--http --print: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, "", "hook", "install", "claude-code", "--http=http://localhost:9001", "--json")
	doc := oneJSON(t, r.stdout)
	if r.code != 0 || doc["url"] != "http://localhost:9001/hooks/claude-code" || len(doc["added"].([]any)) != 4 {
		t.Fatalf("--http=URL: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	hs := read()
	if p := hs["UserPromptSubmit"]; len(p) != 1 || p[0].Type != "http" || p[0].URL != "http://localhost:9001/hooks/claude-code" {
		t.Errorf("UserPromptSubmit: %+v", p)
	}
	for _, ev := range []string{"Stop", "PreCompact", "SessionEnd"} {
		if h := hs[ev]; len(h) != 1 || h[0].Type != "command" || !strings.HasSuffix(h[0].Command, " hook claude-code") {
			t.Errorf("%s: %+v", ev, h)
		}
	}
	if r := runCLI(t, "", "hook", "install", "claude-code", "--http", "http://127.0.0.1:9001/hooks/claude-code"); r.code != 0 || !strings.Contains(r.stdout, "added") {
		t.Errorf("--http URL (serve moved): exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if p := read()["UserPromptSubmit"]; len(p) != 1 || p[0].URL != "http://127.0.0.1:9001/hooks/claude-code" {
		t.Errorf("after the move: %+v", p)
	}
	if r := runCLI(t, "", "hook", "install", "claude-code"); r.code != 0 {
		t.Fatalf("back to the command: exit %d %s", r.code, r.stderr)
	}
	if p := read()["UserPromptSubmit"]; len(p) != 1 || p[0].Type != "command" {
		t.Errorf("back to the command: %+v", p)
	}

	for _, args := range [][]string{
		{"hook", "install", "claude-code", "--http", "http://example.com:8765/hooks/claude-code"},
		{"hook", "install", "claude-code", "--http=https://127.0.0.1:8765"},
		{"hook", "install", "claude-code", "--http=http://127.0.0.1:8765/api/memory/recall"},
		{"hook", "install", "claude-code", "--http=http://127.0.0.1:1", "http://127.0.0.1:2"},
		{"hook", "install", "claude-code", "http://127.0.0.1:8765"},
		{"hook", "install", "codex", "--http"},
	} {
		r := runCLI(t, "", append(args, "--json")...)
		if r.code != 2 || oneJSON(t, r.stdout)["error"].(map[string]any)["code"] != "INVALID_ARGUMENT" {
			t.Errorf("%v: exit %d %s", args, r.code, r.stdout)
		}
	}
}
