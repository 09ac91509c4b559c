package app

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine/result"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/hosts/local"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// TestEngineOptions: the one table of how each role opens the engine.
func TestEngineOptions(t *testing.T) {
	cases := []struct {
		role        Role
		opts        Options
		tier        trust.Tier
		interactive bool
		longLived   bool
		distiller   bool
	}{
		{Verb, Options{}, "", false, false, true},
		{Verb, Options{Tier: trust.Paired, Interactive: true}, trust.Paired, true, false, true},
		{TUI, Options{Tier: trust.Paired}, trust.Owner, true, true, true},
		{Serve, Options{Tier: trust.Paired}, trust.Paired, true, true, true},
		{MCP, Options{Tier: trust.Paired, Interactive: true}, trust.Paired, false, true, true},
		{Daemon, Options{Interactive: true}, trust.Owner, false, true, true},
		{Hook, Options{Tier: trust.Paired, Interactive: true}, trust.Owner, false, false, true},
		{mcpReader, Options{Tier: trust.Paired}, trust.Owner, false, true, false},
	}
	for _, c := range cases {
		o := engineOptions("/state", c.role, c.opts)
		_, hasDistiller := o.Distiller.(writer.Distiller)
		if o.StateDir != "/state" || o.Tier != c.tier || o.Interactive != c.interactive || o.LongLived != c.longLived || hasDistiller != c.distiller {
			t.Errorf("%s %+v: tier %q interactive %v long-lived %v distiller %v", c.role, c.opts, o.Tier, o.Interactive, o.LongLived, hasDistiller)
		}
	}
	stamp := func() {}
	o := engineOptions("/s", Verb, Options{Holder: "scriptorium update", OnLockWait: stamp, CrashAt: "x"})
	if o.Holder != "scriptorium update" || o.OnLockWait == nil || o.CrashAt != "x" {
		t.Errorf("verb options not passed on: %+v", o)
	}
}

// TestOpen: an engine opens for a role, and the opener of a host gives
// the plain engine; the daemon's is not handed out that way.
func TestOpen(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	e, err := Open(ctx, state, Verb, Options{Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	h, err := Opener(state, Hook, Options{})(ctx)
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if _, err := Opener(state, Daemon, Options{})(ctx); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("an opener for the daemon: %v", err)
	}
}

// TestOpen_TUIServesTheSocket: while the owner has the TUI open, a
// one-shot search of the workspace is answered by the TUI's engine; once
// it closes, the socket is gone and the CLI searches itself.
func TestOpen_TUIServesTheSocket(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	e, err := Open(ctx, state, TUI, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for start := time.Now(); !e.socket.Ready(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatal("the TUI's engine never served the socket")
		}
	}
	mem := workspace.MemoryDir(state)
	if _, ok := local.Search(mem, result.SearchQuery{Text: "anything", Limit: 5}, 5*time.Second); !ok {
		t.Fatal("a search was not answered by the TUI's engine")
	}
	if e.socket.Answered() != 1 {
		t.Errorf("answered %d searches, want 1", e.socket.Answered())
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := local.Search(mem, result.SearchQuery{Text: "anything", Limit: 5}, time.Second); ok {
		t.Error("a closed TUI still answered")
	}
	if _, err := Opener(state, TUI, Options{})(ctx); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("an opener for the TUI: %v", err)
	}
}
