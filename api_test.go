package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/trust"
)

func openerFor(t *testing.T, dir string) func(context.Context, trust.Tier) (*engine.Engine, error) {
	t.Helper()
	return func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier, Interactive: true})
	}
}

func TestServe_RoutesAndErrors(t *testing.T) {
	dir := t.TempDir()
	srv := httptest.NewServer(&apiHandler{open: openerFor(t, dir)})
	defer srv.Close()

	res, err := http.Get(srv.URL + "/api/memory/status")
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil || res.StatusCode != 200 {
		t.Fatalf("status: %d %v", res.StatusCode, err)
	}
	res.Body.Close()
	if _, ok := st["workspace_id"]; !ok {
		t.Errorf("status has no workspace_id: %v", st)
	}

	cases := []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/api/memory/search?q=", "", 400, "INVALID_ARGUMENT"},
		{"GET", "/api/memory/get?ref=^deadbeef", "", 404, "NOT_FOUND"},
		{"GET", "/api/memory/nope", "", 404, "NOT_FOUND"},
		{"GET", "/api/memory/update", "", 400, "INVALID_ARGUMENT"},
		{"POST", "/api/memory/update", `{"base_revision": 7, "edits":[{"op":"delete","path":"topics/x.md"}]}`, 409, "CONFLICT"},
		{"POST", "/api/memory/update", `not json`, 400, "INVALID_ARGUMENT"},
		{"POST", "/api/memory/update?as=paired", `{"base_revision": 0, "edits":[{"op":"delete","path":"topics/x.md"}]}`, 422, "REJECTED"},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.NewDecoder(res.Body).Decode(&doc)
		res.Body.Close()
		if res.StatusCode != c.status || doc.Error.Code != c.code {
			t.Errorf("%s %s: got %d %q, want %d %q", c.method, c.path, res.StatusCode, doc.Error.Code, c.status, c.code)
		}
	}
}

// Other origins reach a loopback port through browsers; the API refuses
// what a browser adds: an Origin, a rebound Host, a non-JSON POST.
func TestServe_RefusesBrowserCrossSiteRequests(t *testing.T) {
	srv := httptest.NewServer(&apiHandler{open: openerFor(t, t.TempDir())})
	defer srv.Close()
	tx := `{"base_revision":0,"edits":[{"op":"create","path":"topics/x.md","content":"# X\n\nInjected. ^0000000a\n"}]}`
	cases := []struct {
		name   string
		mutate func(*http.Request)
		status int
	}{
		{"origin header", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
		{"rebound host", func(r *http.Request) { r.Host = "evil.example:8765" }, 403},
		{"form post", func(r *http.Request) { r.Header.Set("Content-Type", "text/plain") }, 400},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("POST", srv.URL+"/api/memory/update", strings.NewReader(tx))
		req.Header.Set("Content-Type", "application/json")
		c.mutate(req)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d", c.name, res.StatusCode, c.status)
		}
	}
	for _, h := range []string{"127.0.0.1:1", "localhost", "[::1]:8765"} {
		if !loopbackHost(h) {
			t.Errorf("loopbackHost(%q) = false", h)
		}
	}
}

func TestServe_DisabledBackendTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&apiHandler{open: openerFor(t, dir)})
	defer srv.Close()
	res, err := http.Get(srv.URL + "/api/memory/status")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status code %d, want 503", res.StatusCode)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory")); !os.IsNotExist(err) {
		t.Errorf("a disabled backend created the workspace (stat err %v)", err)
	}
}

func TestMCP_ListAndCall(t *testing.T) {
	dir := t.TempDir()
	open := func(ctx context.Context) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: dir, Interactive: true})
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_get","arguments":{"ref":"^deadbeef"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"bogus"}`,
		`garbage`,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := serveMCP(context.Background(), strings.NewReader(in), &out, open); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("want 5 answers (no answer to the notification), got %d:\n%s", len(lines), out.String())
	}
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	_ = json.Unmarshal([]byte(lines[0]), &init)
	if init.Result.ProtocolVersion != "2025-03-26" {
		t.Errorf("initialize: %s", lines[0])
	}
	if !strings.Contains(lines[1], "memory_search") {
		t.Errorf("tools/list: %s", lines[1])
	}
	if !strings.Contains(lines[2], `"isError":true`) || !strings.Contains(lines[2], `NOT_FOUND`) {
		t.Errorf("tools/call of a missing block: %s", lines[2])
	}
	if !strings.Contains(lines[3], `-32601`) || !strings.Contains(lines[4], `-32700`) {
		t.Errorf("protocol errors: %s / %s", lines[3], lines[4])
	}
}

// An MCP client is an agent: memory_get never hands it pending content.
func TestMCP_GetRefusesPendingContent(t *testing.T) {
	state := fixtureState(t, "valid")
	open := func(ctx context.Context) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: state, Interactive: true})
	}
	e, err := open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ps, err := e.Pending(context.Background())
	e.Close()
	if err != nil || len(ps) == 0 {
		t.Fatalf("the valid fixture has no pending source: %v", err)
	}
	in := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_get","arguments":{"ref":"` + ps[0].Ref + `"}}}` + "\n"
	var out bytes.Buffer
	if err := serveMCP(context.Background(), strings.NewReader(in), &out, open); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"isError":true`) || !strings.Contains(out.String(), "FORBIDDEN") ||
		strings.Contains(out.String(), ps[0].Content) {
		t.Errorf("memory_get of a pending source answered: %s", out.String())
	}
}
