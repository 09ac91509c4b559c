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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOversizedMessage sends one message over the 16 MiB limit through the
// SDK client: that call gets an error answer, and the same session then
// answers a normal call (the hand-written server died on such a message).
func TestOversizedMessage(t *testing.T) {
	huge := strings.Repeat("x", DefaultMaxMessageBytes+1<<20)
	for name, connect := range transports {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			cs := connect(t, f.write, f.opts())
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			defer cancel()
			_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memory_update", Arguments: map[string]any{
				"base_revision": 1, "edits": []any{map[string]any{"op": "create", "path": "topics/huge.md", "content": huge}}}})
			if err == nil || !strings.Contains(err.Error(), "limit") {
				t.Fatalf("oversized call: %v, want an error naming the limit", err)
			}
			if res := call(t, cs, "memory_status", nil); res.IsError {
				t.Fatalf("status after the oversized message: %s", text(res))
			}
		})
	}
}

// TestStdioBadLines writes lines the SDK cannot read straight to the
// server: each gets a JSON-RPC error (under its id when it has one) and
// the session goes on to initialize and answer a tool call.
func TestStdioBadLines(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	opts.MaxMessageBytes = 1 << 20
	srvIn, cliOut := io.Pipe()
	cliIn, srvOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- ServeStdio(context.Background(), f.write, opts, srvIn, srvOut) }()

	lines := []string{
		"this is not json",
		`{"jsonrpc":"2.0","id":1,"method":"ping"} trailing`,
		`[]`,
		`42`,
		`{"jsonrpc":"1.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_status","pad":"` + strings.Repeat("y", 2<<20) + `"}}`,
		`{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"` + strings.Repeat("z", 2<<20) + `"}}`,
		`   `,
		`{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}   `,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"memory_status","arguments":{}}}`,
	}
	go func() {
		for _, l := range lines {
			if _, err := io.WriteString(cliOut, l+"\n"); err != nil {
				return
			}
		}
	}()

	type answer struct {
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *jsonrpc.Error  `json:"error"`
	}
	want := map[string]int64{ // id → error code (0: a result)
		"2": jsonrpc.CodeInvalidRequest, "3": jsonrpc.CodeInvalidRequest, "10": 0, "11": 0}
	nulls := 0
	sc := bufio.NewScanner(cliIn)
	sc.Buffer(nil, 1<<20)
	deadline := time.AfterFunc(20*time.Second, func() { cliIn.Close() })
	defer deadline.Stop()
	for len(want) > 0 && sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("server wrote %q: %v", sc.Text(), err)
		}
		id := string(a.ID)
		if id == "null" {
			nulls++
			if a.Error == nil || !json.Valid(a.Error.Data) {
				t.Errorf("null-id answer without an error document: %s", sc.Text())
			}
			continue
		}
		code, ok := want[id]
		if !ok {
			t.Fatalf("unexpected answer %s", sc.Text())
		}
		delete(want, id)
		switch {
		case code == 0 && a.Error != nil:
			t.Errorf("id %s: error %+v", id, a.Error)
		case code != 0 && (a.Error == nil || a.Error.Code != code):
			t.Errorf("id %s: %s, want error %d", id, sc.Text(), code)
		}
		if id == "11" && !strings.Contains(string(a.Result), "workspace_id") {
			t.Errorf("status after the bad lines: %s", a.Result)
		}
	}
	if len(want) > 0 {
		t.Fatalf("no answer for %v (scan: %v)", want, sc.Err())
	}
	// not json, trailing data, the batch, 42 and the oversized notification.
	if nulls != 5 {
		t.Errorf("%d answers with a null id, want 5", nulls)
	}
	cliOut.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(callTimeout):
		t.Error("ServeStdio did not return after stdin closed")
	}
}

// TestHTTPRefusesBrowsers checks the loopback-only guard: an Origin header
// or a Host that is not a loopback name (DNS rebinding) is refused before
// the MCP handler runs; an oversized body gets a JSON-RPC 413.
func TestHTTPRefusesBrowsers(t *testing.T) {
	f := newFixture(t)
	opts := f.opts()
	opts.MaxMessageBytes = 1 << 16
	srv := httptest.NewServer(HTTPHandler(f.write, opts))
	defer srv.Close()
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(body string, header map[string]string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	for _, h := range []map[string]string{{"Origin": "https://evil.example"}, {"Host": "evil.example"}, {"Host": "127.0.0.1.evil.example:80"}} {
		resp, body := post(init, h)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, `"code":"FORBIDDEN"`) {
			t.Errorf("%v: %d %s, want 403 FORBIDDEN", h, resp.StatusCode, body)
		}
	}
	if resp, body := post(`{"jsonrpc":"2.0","id":9,"method":"ping","pad":"`+strings.Repeat("x", 1<<17)+`"}`, nil); resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, `"id":9`) {
		t.Errorf("oversized: %d %.200s, want 413 with a JSON-RPC error for id 9", resp.StatusCode, body)
	}
	if resp, body := post(init, map[string]string{"Host": "localhost"}); resp.StatusCode != http.StatusOK || !strings.Contains(body, "scriptorium") {
		t.Errorf("initialize from localhost: %d %s", resp.StatusCode, body)
	}
}
