package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"scriptorium/tests/clitest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appendTx is a transaction appending one block to topics/notes.md.
func appendTx(base int, text, id string) string {
	return fmt.Sprintf(`{"base_revision":%d,"edits":[{"op":"append","path":"topics/notes.md","content":%q}]}`, base, text+" ^"+id+"\n")
}

// serve keeps its engines open for the process, and another process's
// CLI keeps working beside it: the server answers the CLI's writes on its
// next request, the CLI finds what was written through the API, and
// config.toml is still followed request by request.
func TestServe_LongLivedEngineSeesTheCLI(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatalf("init: %s", r.stderr)
	}
	base := clitest.StartServe(t, clitest.Binary(t), state)
	api := base + "/api/memory/"
	revision := func() int {
		t.Helper()
		code, doc := clitest.APIDo(t, "GET", api+"status", "")
		if code != 200 {
			t.Fatalf("status: %d %v", code, doc)
		}
		n, _ := doc["revision"].(float64)
		return int(n)
	}
	search := func(q string) []string {
		t.Helper()
		code, doc := clitest.APIDo(t, "GET", api+"search?q="+url.QueryEscape(q), "")
		if code != 200 {
			t.Fatalf("search %s: %d %v", q, code, doc)
		}
		return clitest.RefsOf(doc)
	}
	if rev := revision(); rev != 0 {
		t.Fatalf("a new workspace at revision %d", rev)
	}
	if refs := search("marmalade"); len(refs) != 0 {
		t.Fatalf("search before any write: %v", refs)
	}

	// The CLI writes while the server holds its engine open.
	if r := runCLI(t, appendTx(0, "Marmalade on Tuesdays.", "0a0b0c01"), "update", "-", "--state", state); r.code != 0 {
		t.Fatalf("CLI update: %d %s", r.code, r.stderr)
	}
	if rev := revision(); rev != 1 {
		t.Errorf("the server's revision after the CLI's update: %d, want 1", rev)
	}
	if refs := search("marmalade"); len(refs) != 1 || refs[0] != "0a0b0c01" {
		t.Errorf("the server's search after the CLI's update: %v", refs)
	}
	if code, doc := clitest.APIDo(t, "GET", api+"get?ref=^0a0b0c01", ""); code != 200 || !strings.Contains(fmt.Sprint(doc["text"]), "Marmalade") {
		t.Errorf("get of the CLI's block: %d %v", code, doc)
	}

	// The server writes (one transaction under the write lock); the CLI
	// reads it, and writes again on top.
	if code, doc := clitest.APIDo(t, "POST", api+"update", appendTx(1, "Quince jam in winter.", "0a0b0c02")); code != 200 {
		t.Fatalf("API update: %d %v", code, doc)
	}
	r := runCLI(t, "", "search", "quince", "--json", "--state", state)
	if r.code != 0 || len(clitest.RefsOf(oneJSON(t, r.stdout))) != 1 {
		t.Errorf("CLI search for the API's block: %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, appendTx(2, "Gooseberry fool in June.", "0a0b0c03"), "update", "-", "--state", state); r.code != 0 {
		t.Fatalf("second CLI update: %d %s", r.code, r.stderr)
	}
	if refs := search("gooseberry"); len(refs) != 1 || refs[0] != "0a0b0c03" {
		t.Errorf("the server's search after the second CLI update: %v", refs)
	}
	// A stale base is still a CONFLICT, and the paired tier has its own
	// engine with its own rights.
	if code, doc := clitest.APIDo(t, "POST", api+"update", appendTx(1, "Stale.", "0a0b0c04")); code != 409 {
		t.Errorf("API update on a stale base: %d %v", code, doc)
	}
	if code, _ := clitest.APIDo(t, "GET", api+"status?as=paired", ""); code != 200 {
		t.Errorf("paired status: %d", code)
	}
	if code, doc := clitest.APIDo(t, "GET", api+"search?q=quince&as=paired", ""); code != 403 {
		t.Errorf("paired search: %d %v", code, doc)
	}

	// config.toml is read on every request, as when each opened an engine.
	cfg := filepath.Join(state, "config.toml")
	if err := os.WriteFile(cfg, []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, doc := clitest.APIDo(t, "GET", api+"status", ""); code != 503 || errorCodeOf(doc) != "MEMORY_DISABLED" {
		t.Errorf("status with memory off: %d %v", code, doc)
	}
	if err := os.WriteFile(cfg, []byte("[memory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, doc := clitest.APIDo(t, "GET", api+"status", ""); code != 400 || errorCodeOf(doc) != "INVALID_ARGUMENT" {
		t.Errorf("status with a broken config: %d %v", code, doc)
	}
	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	if rev := revision(); rev != 3 {
		t.Errorf("revision after the config is back: %d, want 3", rev)
	}
}

// errorCodeOf is the code of an error document, "" for anything else.
func errorCodeOf(doc map[string]any) string {
	e, _ := doc["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

// A SIGTERM while an MCP client still holds its session's stream open
// (the standalone SSE GET of the streamable transport, which never goes
// idle) stops serve cleanly and soon: the stream is cut once the requests
// in flight had their time, well inside the signal's grace, so the exit is
// 0 and the engines were closed, not 143 from the grace running out.
func TestServe_SIGTERMWithAnOpenMCPStream(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatalf("init: %s", r.stderr)
	}
	base, stop := clitest.StartServeStop(t, clitest.Binary(t), state)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "sigterm", Version: "1"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("serve stopped %v after SIGTERM", time.Since(t0).Round(time.Millisecond))
}
