package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRecall_SameBytesEverywhere: the `recall` verb prints exactly what
// the prompt hook injects and MCP memory_recall returns, for the same
// prompt and working directory: one function behind all three.
func TestRecall_SameBytesEverywhere(t *testing.T) {
	bin := clitest.Binary(t)
	state := fixtureState(t, "valid")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--state", state)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range []struct{ prompt, cwd string }{
		{"When does the staging database move to copper-7?", "/home/mara/src/heron"},
		{"who reported the build green? tea?", "/home/mara/src/legacy"},
		{"Craig budget tracker Flask", ""},
	} {
		in, _ := json.Marshal(map[string]any{"session_id": ccSession, "transcript_path": "/nonexistent.jsonl",
			"cwd": c.cwd, "hook_event_name": "UserPromptSubmit", "prompt": c.prompt})
		hr := runCLI(t, string(in), "hook", "claude-code", "--state", state)
		var doc struct {
			Out struct {
				Context string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if hr.code != 0 || json.Unmarshal([]byte(hr.stdout), &doc) != nil || doc.Out.Context == "" {
			t.Fatalf("hook: exit %d, %s %s", hr.code, hr.stdout, hr.stderr)
		}
		args := []string{"recall", c.prompt, "--state", state, "--cwd", c.cwd}
		human := runCLI(t, "", args...)
		js := runCLI(t, "", append(args, "--json")...)
		var res struct {
			Text   string           `json:"text"`
			Items  []map[string]any `json:"items"`
			Tokens int              `json:"tokens"`
			Budget int              `json:"budget"`
		}
		if human.code != 0 || js.code != 0 || json.Unmarshal([]byte(js.stdout), &res) != nil {
			t.Fatalf("recall: exit %d/%d\n%s\n%s", human.code, js.code, human.stderr, js.stdout)
		}
		mr, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_recall", Arguments: map[string]any{"prompt": c.prompt, "cwd": c.cwd}})
		if err != nil || mr.IsError {
			t.Fatalf("memory_recall: %v %s", err, mcpText(mr))
		}
		var out struct {
			Context string `json:"context"`
		}
		data, _ := json.Marshal(mr.StructuredContent)
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		if human.stdout != doc.Out.Context || res.Text != doc.Out.Context || out.Context != doc.Out.Context {
			t.Errorf("%q: not the same bytes\nhook:\n%s\nverb:\n%s\nverb --json:\n%s\nmcp:\n%s", c.prompt, doc.Out.Context, human.stdout, res.Text, out.Context)
		}
		if len(res.Items) == 0 || res.Budget != 1000 || res.Tokens > res.Budget {
			t.Errorf("%q: --json %+v", c.prompt, res)
		}
		if c.cwd == "/home/mara/src/legacy" && !strings.Contains(human.stdout, "## This project") {
			t.Errorf("--cwd names no project:\n%s", human.stdout)
		}
	}
}

// TestRecall_VerbErrors: usage errors per SPEC §12 (exit 2, the JSON error
// document on stdout with --json), and a smaller budget is honoured.
func TestRecall_VerbErrors(t *testing.T) {
	state := fixtureState(t, "valid")
	for _, args := range [][]string{
		{"recall"},
		{"recall", "  "},
		{"recall", "copper-7", "--budget", "ten"},
		{"recall", "copper-7", "--budget", "12"},
		{"recall", "copper-7", "--budget"},
	} {
		r := runCLI(t, "", append(args, "--state", state, "--json")...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
			continue
		}
		e := oneJSON(t, r.stdout)["error"].(map[string]any)
		checkErrorDoc(t, e)
		if e["code"] != "INVALID_ARGUMENT" {
			t.Errorf("%v: %v", args, e)
		}
	}
	r := runCLI(t, "", "recall", "copper-7", "--budget", "100", "--state", state, "--json")
	doc := oneJSON(t, r.stdout)
	if r.code != 0 || doc["budget"].(json.Number).String() != "100" {
		t.Errorf("--budget 100: exit %d %v", r.code, doc)
	}
	r = runCLI(t, "", "recall", "copper-7", "--state", t.TempDir()+"/none", "--json")
	if e := oneJSON(t, r.stdout)["error"].(map[string]any); r.code != 1 || e["code"] != "NOT_FOUND" {
		t.Errorf("no workspace: exit %d, stdout %q", r.code, r.stdout)
	}
}
