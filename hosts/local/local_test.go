package local

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// shortState is a state dir with a path short enough for a socket.
func shortState(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func openWith(t *testing.T, state string, facts string) *engine.Engine {
	t.Helper()
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if facts != "" {
		rev := int64(0)
		if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "create", Path: "topics/facts.md", Content: &facts}}}); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// TestSearch_AnsweredByTheServer: a search through the socket is the
// engine's own answer, and the server counts it.
func TestSearch_AnsweredByTheServer(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	state := shortState(t)
	e := openWith(t, state, "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")
	srv := Serve(context.Background(), e)
	if srv == nil {
		t.Fatal("no server")
	}
	defer srv.Close()
	for start := time.Now(); !srv.Ready(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the server never got ready")
		}
	}
	second := Serve(context.Background(), e)
	if second.Serving() {
		t.Fatal("a second server took the socket of a live one")
	}
	second.Close()
	q := result.SearchQuery{Text: "bees"}
	got, ok := Search(e.Root(), q, time.Second)
	if !ok {
		t.Fatal("the server did not answer")
	}
	want, err := e.SearchReport(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) || srv.Answered() != 1 {
		t.Fatalf("socket answer %s, engine %s (answered %d)", g, w, srv.Answered())
	}
	if fi, err := os.Stat(SocketPath(e.Root())); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v %v", fi.Mode(), err)
	}
	// An error is never answered: the CLI reports it itself.
	if _, ok := Search(e.Root(), result.SearchQuery{Text: "  "}, time.Second); ok {
		t.Error("an invalid query was answered through the socket")
	}
	// A server still reading its workspace refuses at once.
	srv.ready.Store(false)
	start := time.Now()
	if _, ok := Search(e.Root(), q, time.Second); ok || time.Since(start) > 500*time.Millisecond {
		t.Errorf("a server that is not ready answered, or kept the client waiting (%v)", time.Since(start))
	}
	srv.ready.Store(true)
	// Another build of the program is refused: its answer may differ.
	thisBuild = func() string { return "build B" }
	if _, ok := Search(e.Root(), q, time.Second); ok {
		t.Error("a server of another build answered")
	}
	thisBuild = func() string { return "" }
	if _, ok := Search(e.Root(), q, time.Second); ok {
		t.Error("a client of an unknown build used the socket")
	}
	thisBuild = func() string { return "build A" }
	srv.Close()
	if _, ok := Search(e.Root(), q, time.Second); ok {
		t.Error("answered after Close")
	}
}

// TestSearch_NotAnswered: no socket, a stale socket file, a server of
// another build and a server that hangs all leave the search to the CLI.
func TestSearch_NotAnswered(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	state := shortState(t)
	e := openWith(t, state, "")
	q := result.SearchQuery{Text: "bees"}
	if _, ok := Search(e.Root(), q, 200*time.Millisecond); ok {
		t.Fatal("answered without a server")
	}
	path := SocketPath(e.Root())
	// A stale socket: bound, then its listener gone.
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, ok := Search(e.Root(), q, 200*time.Millisecond); ok {
		t.Fatal("a stale socket answered")
	}
	// A server that accepts and never answers.
	os.Remove(path)
	ln, err = net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	if _, ok := Search(e.Root(), q, 200*time.Millisecond); ok {
		t.Fatal("a silent server answered")
	}
	if time.Since(start) > 2*time.Second {
		t.Error("the client waited past its timeout")
	}
	// A regular file in the socket's place is not a socket.
	ln.Close()
	os.Remove(path)
	os.WriteFile(path, nil, 0o600)
	if _, ok := Search(e.Root(), q, 200*time.Millisecond); ok {
		t.Fatal("a plain file answered")
	}
	if filepath.Base(path) != SocketName {
		t.Fatal(path)
	}
}

// TestBuild: the running executable has a Go build ID, and it is stable.
func TestBuild(t *testing.T) {
	b := Build()
	if len(b) < len("go-buildid:")+10 || b != Build() {
		t.Fatalf("build %q", b)
	}
}
