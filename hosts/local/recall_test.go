package local

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/recall"
	"scriptorium/workspace"
)

// TestRecall_AnsweredByTheServer: a recall through the socket is the
// function's own answer on the server's engine, byte for byte, and a
// server of another build is not asked.
func TestRecall_AnsweredByTheServer(t *testing.T) {
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
	req := recall.Request{Prompt: "where are the bees?", Budget: 200, Cwd: "/src/x"}
	got, ok := Recall(e.Root(), req, time.Second)
	if !ok {
		t.Fatal("the server did not answer")
	}
	want, err := recall.Recall(context.Background(), e, req)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) || !strings.Contains(got.Text, "bees") || srv.Answered() != 1 {
		t.Fatalf("socket answer %s, function %s (answered %d)", g, w, srv.Answered())
	}
	thisBuild = func() string { return "build B" }
	if _, ok := Recall(e.Root(), req, time.Second); ok {
		t.Error("a server of another build answered")
	}
	// A config.toml that is broken or switches memory off is the CLI's to
	// report: the server does not answer over it.
	thisBuild = func() string { return "build A" }
	for _, cfg := range []string{"[memory\n", "[memory]\nbackend = \"none\"\n"} {
		if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := Recall(e.Root(), req, time.Second); ok {
			t.Errorf("config.toml %q: the server answered", cfg)
		}
	}
	if err := os.Remove(workspace.ConfigPath(state)); err != nil {
		t.Fatal(err)
	}
	if _, ok := Recall(e.Root(), req, time.Second); !ok {
		t.Error("no config.toml: the server did not answer")
	}
}
