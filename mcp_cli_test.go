package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"regexp"
	"scriptorium/tests/clitest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The real binary, driven by the official Go SDK client: `mcp` over stdio
// and `serve` over streamable HTTP at /mcp. The canary is a pending
// group-chat message of the "valid" fixture; it must never come back.

func mcpCheckSession(t *testing.T, cs *mcp.ClientSession, pendingRef string) {
	t.Helper()
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("tool %s lacks an input or output schema", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"memory_get", "memory_recall", "memory_search", "memory_status", "memory_update"}; !slices.Equal(names, want) {
		t.Errorf("tools = %v, want %v", names, want)
	}
	st, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_status", Arguments: map[string]any{}})
	if err != nil || st.IsError || st.StructuredContent == nil {
		t.Fatalf("memory_status = %+v, %v", st, err)
	}
	// The agent is paired: it may not delete topics/core.md, even against
	// the current revision.
	var status struct {
		Revision int64 `json:"revision"`
	}
	data, _ := json.Marshal(st.StructuredContent)
	if err := json.Unmarshal(data, &status); err != nil {
		t.Fatal(err)
	}
	del, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_update", Arguments: map[string]any{
		"base_revision": status.Revision, "edits": []any{map[string]any{"op": "delete", "path": "topics/core.md"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if txt := mcpText(del); !del.IsError || !strings.Contains(txt, "FORBIDDEN") && !strings.Contains(txt, "REJECTED") {
		t.Errorf("a paired client deleted topics/core.md: %s", txt)
	}
	get, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_get", Arguments: map[string]any{"ref": pendingRef}})
	if err != nil {
		t.Fatal(err)
	}
	if !get.IsError || !strings.Contains(mcpText(get), "FORBIDDEN") {
		t.Errorf("memory_get handed out the pending source %s: %s", pendingRef, mcpText(get))
	}
	core, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memory://core"})
	if err != nil || len(core.Contents) != 1 {
		t.Errorf("memory://core = %+v, %v", core, err)
	}
}

func mcpText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// pendingRefOf finds a pending source of a fixture state through the CLI.
func pendingRefOf(t *testing.T, state string) string {
	t.Helper()
	doc := oneJSON(t, runCLI(t, "", "pending", "--json", "--state", state).stdout)
	srcs, _ := doc["sources"].([]any)
	if len(srcs) == 0 {
		t.Fatal("the fixture has no pending source")
	}
	return srcs[0].(map[string]any)["ref"].(string)
}

func TestMCP_StdioBinary(t *testing.T) {
	bin := clitest.Binary(t)
	state := fixtureState(t, "valid")
	ref := pendingRefOf(t, state)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin, "mcp", "--state", state)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcpCheckSession(t, cs, ref)
}

func TestMCP_ServeHTTPBinary(t *testing.T) {
	bin := clitest.Binary(t)
	state := fixtureState(t, "valid")
	ref := pendingRefOf(t, state)
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--state", state)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var host string
	select {
	case host = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not say where it listens")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "cli-test", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + host + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	mcpCheckSession(t, cs, ref)
}
