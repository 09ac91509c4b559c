package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
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
		{"origin null", func(r *http.Request) { r.Header.Set("Origin", "null") }, 403},
		{"origin named like localhost", func(r *http.Request) { r.Header.Set("Origin", "http://localhost.evil.example") }, 403},
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
	// Issue 24, finding 10: a page of this machine may call (the MCP
	// conformance suite's DNS-rebinding rule, the same at /mcp).
	for i, origin := range []string{"http://localhost:3000", "https://127.0.0.1", "http://[::1]:8765"} {
		body := fmt.Sprintf(`{"base_revision":%d,"edits":[{"op":"create","path":"topics/o%d.md","content":"# O\n\nFrom a local page. ^0000001%d\n"}]}`, i, i, i)
		req, _ := http.NewRequest("POST", srv.URL+"/api/memory/update", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", origin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("Origin %s: %d %s, want 200", origin, res.StatusCode, data)
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
