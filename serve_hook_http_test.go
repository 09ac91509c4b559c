package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/result/prompt"
	"scriptorium/tests/clitest"
)

// hookPost posts body to serve's HTTP hook as Claude Code does; edit
// changes the request first (nil: as Claude Code sends it).
func hookPost(t *testing.T, base, body string, edit func(*http.Request)) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/hooks/claude-code", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if edit != nil {
		edit(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(data)
}

// hookStatusOf is the hook status file of state, zero when there is none.
func hookStatusOf(t *testing.T, state string) prompt.HookStatus {
	t.Helper()
	var st prompt.HookStatus
	data, err := os.ReadFile(prompt.HookPath(state))
	if os.IsNotExist(err) {
		return st
	}
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		t.Fatalf("hook status: %v", err)
	}
	return st
}

// TestServe_HookOverHTTP: serve answers Claude Code's HTTP prompt hook
// with exactly the bytes `hook claude-code` prints, pending content never
// in it (the fixture's pending sources match two of the prompts), and
// records the outcome as the CLI hook does; any failure is a 200 with an
// empty body; a transcript event is refused and imports nothing; what a
// browser adds is refused as by the rest of serve.
func TestServe_HookOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and runs serve")
	}
	state := fixtureState(t, "valid")
	prompts := []string{
		"When does the staging database move to copper-7?",
		"Who asked to be added to the deploy rota?", // Eve's pending message
		"密钥可以给他吗",                                   // 张三's pending message
	}
	want := map[string]string{}
	for _, p := range prompts {
		r := runCLI(t, hookInput(p), "hook", "claude-code", "--state", state)
		if r.code != 0 || !strings.Contains(r.stdout, `"additionalContext":"<memory-context>`) {
			t.Fatalf("the CLI's hook for %q: %d %q", p, r.code, r.stdout)
		}
		want[p] = r.stdout
	}
	if !strings.Contains(want[prompts[0]], "copper-7") {
		t.Fatalf("the CLI recalled no copper-7: %q", want[prompts[0]])
	}
	base := clitest.StartServe(t, clitest.Binary(t), state)

	for _, p := range prompts {
		if err := os.Remove(prompt.HookPath(state)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		code, got := hookPost(t, base, hookInput(p), nil)
		if code != 200 || got != want[p] {
			t.Errorf("%q over HTTP: %d\n%q\nthe CLI printed\n%q", p, code, got, want[p])
		}
		for _, secret := range []string{"deploy rota", "u999", "密钥", "张三"} {
			if strings.Contains(got, secret) {
				t.Errorf("%q over HTTP: pending content %q leaked: %s", p, secret, got)
			}
		}
		if st := hookStatusOf(t, state); st.LastEvent != "UserPromptSubmit" || st.LastSuccessAt == "" || st.LastFailure != nil {
			t.Errorf("%q: hook status %+v", p, st)
		}
	}

	// A transcript event names a file to import as the owner's: refused,
	// recorded, nothing imported.
	transcript, err := filepath.Abs(filepath.Join("testdata", "claude-code", ccSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	before := treeState(t, state, ".scriptorium")
	stop, _ := json.Marshal(map[string]any{"session_id": ccSession, "transcript_path": transcript, "cwd": "/home/mara/src/heron", "hook_event_name": "Stop"})
	if code, got := hookPost(t, base, string(stop), nil); code != 200 || got != "" {
		t.Errorf("Stop over HTTP: %d %q", code, got)
	}
	if st := hookStatusOf(t, state); st.LastFailure == nil || st.LastFailure.Event != "Stop" || !strings.Contains(st.LastFailure.Message, "not answered over HTTP") {
		t.Errorf("Stop over HTTP: hook status %+v", st.LastFailure)
	}
	after := treeState(t, state, ".scriptorium")
	status := filepath.Join("memory", ".scriptorium", "runtime", "hook-status.json")
	delete(before, status)
	delete(after, status)
	if !mapsEqual(before, after) {
		for k, v := range after {
			if before[k] != v {
				t.Errorf("Stop over HTTP changed %s", k)
			}
		}
	}

	// Bad input: 200, nothing, the failure recorded.
	if code, got := hookPost(t, base, "{not json", nil); code != 200 || got != "" {
		t.Errorf("bad JSON: %d %q", code, got)
	}
	if st := hookStatusOf(t, state); st.LastFailure == nil || st.LastFailure.Code != "INVALID_ARGUMENT" || !strings.Contains(st.LastFailure.Message, "not the JSON") {
		t.Errorf("bad JSON: hook status %+v", st.LastFailure)
	}

	// What a browser adds is refused as by the rest of serve.
	refusals := map[string]func(*http.Request){
		"foreign origin": func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") },
		"foreign host":   func(r *http.Request) { r.Host = "evil.example:8765" },
		"text body":      func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") },
		"GET":            func(r *http.Request) { r.Method = http.MethodGet },
	}
	for name, edit := range refusals {
		code, got := hookPost(t, base, hookInput(prompts[0]), edit)
		if code < 400 || strings.Contains(got, "copper-7") || !strings.Contains(got, `"error"`) {
			t.Errorf("%s: %d %q", name, code, got)
		}
	}

	// A broken config.toml is the hook's failure to record; memory off is
	// silent. Both answer nothing.
	cfg := filepath.Join(state, "config.toml")
	if err := os.WriteFile(cfg, []byte("[memory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, got := hookPost(t, base, hookInput(prompts[0]), nil); code != 200 || got != "" {
		t.Errorf("broken config: %d %q", code, got)
	}
	if st := hookStatusOf(t, state); st.LastFailure == nil || st.LastFailure.Event != "UserPromptSubmit" {
		t.Errorf("broken config: hook status %+v", st.LastFailure)
	}
	if err := os.WriteFile(cfg, []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, got := hookPost(t, base, hookInput(prompts[0]), nil); code != 200 || got != "" {
		t.Errorf("memory off: %d %q", code, got)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
