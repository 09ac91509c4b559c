package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

const rawInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func postMCP(t *testing.T, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data)
}

// Issue 24, finding 10: every Origin got 403, so a page on localhost (the
// MCP conformance suite's DNS-rebinding scenario) could not connect. A
// loopback origin on any port is accepted, every other one refused.
func TestHTTPOrigins(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(HTTPHandler(f.write, f.opts()))
	defer srv.Close()
	for origin, ok := range map[string]bool{
		"http://localhost:3000": true, "https://localhost": true, "http://127.0.0.1:8765": true, "http://[::1]:9": true,
		"http://evil.example.com": false, "null": false, "http://localhost.evil.example": false, "http://localhost@evil.example": false,
	} {
		resp, body := postMCP(t, srv.URL+"/mcp", rawInit, map[string]string{"Origin": origin})
		if ok && (resp.StatusCode != http.StatusOK || !strings.Contains(body, "scriptorium")) {
			t.Errorf("Origin %s: %d %s, want the initialize answer", origin, resp.StatusCode, body)
		}
		if !ok && (resp.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"FORBIDDEN"`)) {
			t.Errorf("Origin %s: %d %s, want 403 FORBIDDEN", origin, resp.StatusCode, body)
		}
	}
}

// A JSON-RPC batch gets the same answer over HTTP as over stdio: one
// Invalid Request error with a null id, and the server goes on serving.
func TestBatchesSameOverHTTPAndStdio(t *testing.T) {
	f := newFixture(t)
	batches := []string{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `[]`, ` [` + rawInit + `]`}

	type rpcError struct {
		ID    json.RawMessage `json:"id"`
		Error *jsonrpc.Error  `json:"error"`
	}
	decode := func(what, s string) rpcError {
		var e rpcError
		if err := json.Unmarshal([]byte(s), &e); err != nil || e.Error == nil {
			t.Fatalf("%s: %q is not a JSON-RPC error", what, s)
		}
		return e
	}

	// stdio: one answer line per batch.
	srvIn, cliOut := io.Pipe()
	cliIn, srvOut := io.Pipe()
	go ServeStdio(context.Background(), f.write, f.opts(), srvIn, srvOut)
	defer cliOut.Close()
	go func() {
		for _, b := range batches {
			io.WriteString(cliOut, b+"\n")
		}
	}()
	sc := bufio.NewScanner(cliIn)
	timer := time.AfterFunc(20*time.Second, func() { cliIn.Close() })
	defer timer.Stop()
	var stdio []rpcError
	for range batches {
		if !sc.Scan() {
			t.Fatalf("stdio: no answer (%v)", sc.Err())
		}
		stdio = append(stdio, decode("stdio", sc.Text()))
	}

	srv := httptest.NewServer(HTTPHandler(f.write, f.opts()))
	defer srv.Close()
	for i, b := range batches {
		resp, body := postMCP(t, srv.URL+"/mcp", b, nil)
		got := decode("HTTP", strings.TrimSpace(body))
		want := stdio[i]
		if string(got.ID) != "null" || got.Error.Code != jsonrpc.CodeInvalidRequest || got.Error.Message != want.Error.Message ||
			got.Error.Code != want.Error.Code || string(got.ID) != string(want.ID) {
			t.Errorf("batch %s: HTTP %d %s, stdio %+v", b, resp.StatusCode, body, want.Error)
		}
		if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("batch %s: HTTP status %d %q, want 400 application/json", b, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	// Both go on serving.
	if resp, body := postMCP(t, srv.URL+"/mcp", rawInit, nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, "scriptorium") {
		t.Errorf("HTTP after the batches: %d %s", resp.StatusCode, body)
	}
	io.WriteString(cliOut, rawInit+"\n")
	if !sc.Scan() || !strings.Contains(sc.Text(), "scriptorium") {
		t.Errorf("stdio after the batches: %q", sc.Text())
	}
}
