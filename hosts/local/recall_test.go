package local

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/recall"
	"scriptorium/engine/review"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
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

// TestRecall_ServerNeverPendingAcrossTrustChanges: a running server
// answers every prompt from what is trusted now, though it keeps each
// snapshot's block trust between prompts: a rejection, a new pending
// source cited by core.md, a trusted source turned pending behind its back
// (core.md unchanged) and a promotion each show in the next answer, asked
// twice (the second from the memo).
func TestRecall_ServerNeverPendingAcrossTrustChanges(t *testing.T) {
	defer func(b func() string) { thisBuild = b }(thisBuild)
	thisBuild = func() string { return "build A" }
	ctx := context.Background()
	state := shortState(t)
	path := "sources/telegram/_v2/group-9.md"
	rec := func(id, text string, pending bool) archive.Record {
		return archive.Record{SourceID: "telegram/group-9/" + id, SpeakerID: "u1", SpeakerDisplay: "Ann",
			Time: time.Date(2026, 8, 10, 9, 0, 0, 0, time.UTC), Content: text, Pending: pending}
	}
	writeArchive := func(recs ...archive.Record) {
		t.Helper()
		data, _, err := archive.Append(nil, recs)
		if err != nil {
			t.Fatal(err)
		}
		full := filepath.Join(state, "memory", filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	block := func(n int, id, text, cited string) string {
		label := fmt.Sprintf("e-000000000%d", n)
		return "\n" + text + "[^" + label + "] ^" + id + "\n\n[^" + label + "]: Time: `2026-08-10`; Sources: [" + cited +
			"](../" + path + "#" + archive.AnchorFor(cited) + ")\n"
	}
	writeCore := func(blocks ...string) {
		t.Helper()
		full := filepath.Join(state, "memory", "topics", "core.md")
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("# Core\n"+strings.Join(blocks, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m0, m1, m2 := rec("m0", "The team meets on Mondays.", false), rec("m1", "The vault code is quetzal.", true),
		rec("m2", "The safe code is kestrel.", true)
	team := block(1, "0a0a0a0a", "The team meets on Mondays.", m0.SourceID)
	vault := block(2, "0b0b0b0b", "The vault code is quetzal.", m1.SourceID)
	safe := block(3, "0c0c0c0c", "The safe code is kestrel.", m2.SourceID)
	writeArchive(m0, m1)
	writeCore(team, vault)
	racy := func() { time.Sleep(2100 * time.Millisecond) } // the files' signatures no longer racy: the snapshot is kept
	racy()
	e := openWith(t, state, "")
	srv := Serve(ctx, e)
	if srv == nil {
		t.Fatal("no server")
	}
	defer srv.Close()
	for start := time.Now(); !srv.Ready(); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the server never got ready")
		}
	}
	ask := func(step string, want, never []string) {
		t.Helper()
		for range 2 {
			got, ok := Recall(e.Root(), recall.Request{Prompt: "vault safe team codes", Budget: 1000}, 5*time.Second)
			if !ok {
				t.Fatalf("%s: the server did not answer", step)
			}
			for _, w := range want {
				if !strings.Contains(got.Text, w) {
					t.Errorf("%s: %q not recalled:\n%s", step, w, got.Text)
				}
			}
			for _, n := range never {
				if strings.Contains(got.Text, n) {
					t.Errorf("%s: %q recalled:\n%s", step, n, got.Text)
				}
			}
		}
	}
	ask("start", []string{"Mondays"}, []string{"quetzal"})
	if _, err := review.Reject(ctx, e, []string{m1.SourceID}, "unknown sender"); err != nil {
		t.Fatal(err)
	}
	ask("rejected", []string{"Mondays"}, []string{"quetzal"})
	writeArchive(m0, m1, m2)
	writeCore(team, vault, safe)
	ask("a new pending source cited", []string{"Mondays"}, []string{"quetzal", "kestrel"})
	racy()
	ask("a new pending source cited, kept", []string{"Mondays"}, []string{"quetzal", "kestrel"})
	m0.Pending = true
	writeArchive(m0, m1, m2)
	ask("a trusted source turned pending", nil, []string{"Mondays", "quetzal", "kestrel"})
	racy()
	ask("a trusted source turned pending, kept", nil, []string{"Mondays", "quetzal", "kestrel"})
	if _, err := e.Promote(ctx, []string{m1.SourceID}); err != nil {
		t.Fatal(err)
	}
	ask("promoted", []string{"quetzal"}, []string{"Mondays", "kestrel"})
	if srv.Answered() != 14 {
		t.Errorf("the server answered %d prompts, want 14", srv.Answered())
	}
}
