package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"scriptorium/engine"
)

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
