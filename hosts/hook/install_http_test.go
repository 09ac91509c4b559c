package hook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"scriptorium/hosts/hook"
)

// handlersOf is every handler of every event of a settings file, as
// "command CMD" or "http URL", in file order.
func handlersOf(t *testing.T, path string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				URL     string `json:"url"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("settings: %v\n%s", err, data)
	}
	out := map[string][]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Timeout <= 0 {
					t.Errorf("%s: a handler without a timeout: %+v", ev, h)
				}
				out[ev] = append(out[ev], h.Type+" "+h.Command+h.URL)
			}
		}
	}
	return out
}

// TestInstall_HTTP: with a URL the prompt posts to serve and the other
// events stay commands; the command group it replaces is gone (a prompt
// never gets its context twice), another serve port's group of ours is
// replaced too, the user's own http hook stays, installing twice adds
// nothing, and installing the command form again puts the command back.
func TestInstall_HTTP(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	client := hook.ClientCommand("/usr/local/bin/scriptorium-hook", "")
	theirs := `{"type":"http","url":"http://127.0.0.1:9999/audit","timeout":2}`
	old := `{"hooks":{"UserPromptSubmit":[{"hooks":[` + theirs + `]}]}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hook.Install(path, client, testCommand); err != nil {
		t.Fatal(err)
	}
	const url = "http://127.0.0.1:8765/hooks/claude-code"
	plan := hook.Plan{Command: client, URL: url, Replaces: []string{testCommand}}
	res, err := hook.InstallPlan(path, plan)
	if err != nil || !slices.Equal(res.Added, []string{"UserPromptSubmit"}) || res.URL != url || res.Backup == "" {
		t.Fatalf("%+v, %v", res, err)
	}
	got := handlersOf(t, path)
	if want := []string{"http http://127.0.0.1:9999/audit", "http " + url}; !slices.Equal(got["UserPromptSubmit"], want) {
		t.Errorf("UserPromptSubmit runs %q, want %q", got["UserPromptSubmit"], want)
	}
	for _, ev := range hook.Events[1:] {
		if want := []string{"command " + client}; !slices.Equal(got[ev], want) {
			t.Errorf("%s runs %q, want %q", ev, got[ev], want)
		}
	}
	if res, err := hook.InstallPlan(path, plan); err != nil || len(res.Added) != 0 {
		t.Errorf("installed twice: %+v, %v", res, err)
	}

	// serve moved to another port: the old URL's group is ours, replaced.
	moved := plan
	moved.URL = "http://localhost:9000/hooks/claude-code"
	if res, err := hook.InstallPlan(path, moved); err != nil || !slices.Equal(res.Added, []string{"UserPromptSubmit"}) {
		t.Fatalf("moved: %+v, %v", res, err)
	}
	if got := handlersOf(t, path)["UserPromptSubmit"]; !slices.Equal(got, []string{"http http://127.0.0.1:9999/audit", "http " + moved.URL}) {
		t.Errorf("moved: UserPromptSubmit runs %q", got)
	}

	// Back to the command: the http group goes, the user's stays.
	if _, err := hook.Install(path, client, testCommand); err != nil {
		t.Fatal(err)
	}
	got = handlersOf(t, path)
	if want := []string{"http http://127.0.0.1:9999/audit", "command " + client}; !slices.Equal(got["UserPromptSubmit"], want) {
		t.Errorf("back to the command: UserPromptSubmit runs %q, want %q", got["UserPromptSubmit"], want)
	}
}

// TestInstall_HTTPSnippet: --print's JSON holds the http handler for the
// prompt alone.
func TestInstall_HTTPSnippet(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	plan := hook.Plan{Command: testCommand, URL: "http://127.0.0.1:8765/hooks/claude-code"}
	if err := os.WriteFile(path, hook.Snippet(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	got := handlersOf(t, path)
	if !slices.Equal(got["UserPromptSubmit"], []string{"http " + plan.URL}) || !slices.Equal(got["Stop"], []string{"command " + testCommand}) {
		t.Errorf("snippet: %q", got)
	}
}

// TestOurURL: only serve's hook path on a loopback host is ours.
func TestOurURL(t *testing.T) {
	for u, want := range map[string]bool{
		"http://127.0.0.1:8765/hooks/claude-code":   true,
		"http://localhost/hooks/claude-code":        true,
		"http://[::1]:1/hooks/claude-code":          true,
		"https://127.0.0.1:8765/hooks/claude-code":  false,
		"http://example.com:8765/hooks/claude-code": false,
		"http://127.0.0.1:8765/hooks/other":         false,
		"http://127.0.0.1:8765/hooks/claude-code?x": false,
		"http://u@127.0.0.1:8765/hooks/claude-code": false,
		"": false,
	} {
		if got := hook.OurURL(u); got != want {
			t.Errorf("OurURL(%q) = %v, want %v", u, got, want)
		}
	}
}
