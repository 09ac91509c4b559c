package search

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
)

// TestSearch_IndexHeldElsewhere: after a hand edit, the index needs
// bringing up to date, but another process holds it and does not let go
// (a reader of an older build, a slow search). The search does not fail
// LOCK_BUSY: it answers from the index as it stands, and drops the hits
// the files no longer hold (the edited-away block), never showing them.
func TestSearch_IndexHeldElsewhere(t *testing.T) {
	state := coldFacts(t)
	mem := filepath.Join(state, "memory")
	holder, err := index.OpenWith(filepath.Join(mem, ".scriptorium", "index"), index.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	edited := "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n\nThe owner plays the violin on Sundays. ^0000000c\n"
	if err := os.WriteFile(filepath.Join(mem, "topics", "facts.md"), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Search(context.Background(), result.SearchQuery{Text: "bees"})
	if err != nil {
		t.Fatalf("search while another process holds the index: %v", err)
	}
	if len(res) != 1 || res[0].Ref != "0000000a" {
		t.Fatalf("search while another process holds the index: %+v", res)
	}
	res, err = e.Search(context.Background(), result.SearchQuery{Text: "cello Sundays"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Ref == "0000000b" {
			t.Fatalf("the stale index showed a block the file no longer holds: %+v", res)
		}
	}
	if StatsOf(e).Stale == 0 {
		t.Fatalf("the searches did not go the stale way")
	}
	holder.Close()
	res, err = e.Search(context.Background(), result.SearchQuery{Text: "violin"})
	if err != nil || len(res) != 1 || res[0].Ref != "0000000c" {
		t.Fatalf("once the index is free the edit is found: %+v %v", res, err)
	}
}

// TestSearch_IndexWrittenElsewhere: another process has the index for
// writing for five seconds (a full rebuild of a large workspace). A
// search does not fail LOCK_BUSY: it waits for the index and answers.
func TestSearch_IndexWrittenElsewhere(t *testing.T) {
	state := coldFacts(t)
	mem := filepath.Join(state, "memory")
	writer, err := index.OpenWith(filepath.Join(mem, ".scriptorium", "index"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(5 * time.Second)
		writer.Close()
		close(released)
	}()
	edited := "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n\nThe owner plays the violin on Sundays. ^0000000c\n"
	if err := os.WriteFile(filepath.Join(mem, "topics", "facts.md"), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.Search(context.Background(), result.SearchQuery{Text: "bees"})
	<-released
	if err != nil || len(res) != 1 || res[0].Ref != "0000000a" {
		t.Fatalf("search while another process writes the index: %+v %v", res, err)
	}
}
