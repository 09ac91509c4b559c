package writer_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/writer"
)

// Rough edge: an untitled session's thread file was named after its first
// words, so after the owner forgot that turn its words stayed in memory as
// a file name (the session's thread block, citing other turns, stayed). A
// thread file is named by who or what it is about and when
// it started, never by what a turn said.
func TestWrite_ThreadNameKeepsNoWordAForgetRemoved(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","speaker_id":"u2","speaker_display":"Jo","content":"Rosalind secret Kilimanjaro stuff lol","time":"2026-01-01T10:00:00Z","tier":"paired"}
{"session":"s1","id":"m2","parent":"m1","role":"user","speaker_id":"u1","speaker_display":"Craig","content":"Haha","time":"2026-01-01T10:01:00Z","tier":"owner"}
{"session":"s1","id":"m3","parent":"m2","role":"user","speaker_id":"u2","speaker_display":"Jo","content":"I started a new job at the Bristol planetarium last Monday.","time":"2026-01-01T10:02:00Z","tier":"paired"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{"openprogram/s1/m1"}}, false); err != nil {
		t.Fatal(err)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.TopicPaths() {
		for _, w := range []string{"secret", "kilimanjaro", "rosalind", "climbing"} {
			if strings.Contains(strings.ToLower(p), w) {
				t.Errorf("%s keeps %q, a word of the forgotten turn", p, w)
			}
		}
	}
}

// Issue 22: two sessions titled "New chat" shared one thread file, so the
// second's summary landed in the first's file. A repeated title gets the
// session's day (and time when that repeats too), never an id.
func TestWrite_RepeatedTitleGetsItsOwnThreadFile(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	importTurns(t, state, `{"session":"a","id":"a1","role":"user","content":"I adopted a cat named Pixel.","time":"2026-01-01T10:00:00Z","tier":"owner","title":"New chat"}
{"session":"b","id":"b1","role":"user","content":"I started learning the cello.","time":"2026-01-05T09:00:00Z","tier":"owner","title":"New chat"}
{"session":"c","id":"c1","role":"user","content":"I booked a trip to Lisbon in May.","time":"2026-01-05T18:30:00Z","tier":"owner","title":"New chat"}
`)
	e := ftOpen(t, state)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var threads []string
	for _, p := range v.TopicPaths() {
		if strings.HasPrefix(p, "topics/threads/") {
			threads = append(threads, p)
			if !strings.HasPrefix(p, "topics/threads/new-chat") {
				t.Errorf("%s is not named by the title", p)
			}
		}
	}
	if len(threads) != 3 {
		t.Fatalf("thread files %v, want one per session", threads)
	}
	for _, p := range threads {
		_, file, _ := v.Topic(p)
		if n := len(file.Blocks()); n != 1 {
			t.Errorf("%s holds %d blocks, want its session's summary alone", p, n)
		}
	}
	// A later batch of the first session stays in its file.
	importTurns(t, state, `{"session":"a","id":"a2","parent":"a1","role":"user","content":"Pixel is a grey tabby.","time":"2026-01-09T10:00:00Z","tier":"owner","title":"New chat"}
`)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if v, err = e.View(ctx); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range v.TopicPaths() {
		if strings.HasPrefix(p, "topics/threads/") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d thread files after a later batch, want 3", n)
	}
}
