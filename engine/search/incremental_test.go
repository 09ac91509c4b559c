package search

import (
	"context"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// An install updates the index in place: a fact is searchable the moment
// its transaction returns, without a rebuild.
func TestIndex_InstallUpdatesIncrementally(t *testing.T) {
	state := t.TempDir()
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Search(ctx, result.SearchQuery{Text: "anything"}); err != nil {
		t.Fatal(err)
	}
	if n := StatsOf(e).Rebuilds; n != 1 {
		t.Fatalf("first search: %d rebuilds, want 1", n)
	}
	// Create a file, then change it: the second install replaces a file
	// the index already describes.
	for i, ed := range []result.Edit{
		{Op: "create", Path: "topics/facts.md", Content: ptr("# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n")},
		{Op: "append", Path: "topics/facts.md", Content: ptr("The owner plays the cello on Sundays. ^0000000b\n")},
	} {
		rev := int64(i)
		if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{ed}}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Search(ctx, result.SearchQuery{Text: "cello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Ref != "0000000b" {
		t.Fatalf("search after install: %+v", res)
	}
	if n := StatsOf(e).Rebuilds; n != 1 {
		t.Errorf("installs caused %d full rebuilds; want the index updated in place", n-1)
	}
}

func ptr(s string) *string { return &s }
