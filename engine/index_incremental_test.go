package engine

import (
	"context"
	"testing"
)

// An install updates the index in place: a fact is searchable the moment
// its transaction returns, without a rebuild.
func TestIndex_InstallUpdatesIncrementally(t *testing.T) {
	state := t.TempDir()
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Search(ctx, SearchQuery{Text: "anything"}); err != nil {
		t.Fatal(err)
	}
	if n := e.indexRebuilds.Load(); n != 1 {
		t.Fatalf("first search: %d rebuilds, want 1", n)
	}
	for i, text := range []string{"The owner keeps bees on the roof.", "The owner plays the cello on Sundays."} {
		rev := int64(i)
		content := "# Facts\n\n" + text + " ^0000000" + string(rune('a'+i)) + "\n"
		path := "topics/facts" + string(rune('a'+i)) + ".md"
		if _, err := e.Update(ctx, Transaction{BaseRevision: &rev, Edits: []Edit{{Op: "create", Path: path, Content: &content}}}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := e.Search(ctx, SearchQuery{Text: "cello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Ref != "0000000b" {
		t.Fatalf("search after install: %+v", res)
	}
	if n := e.indexRebuilds.Load(); n != 1 {
		t.Errorf("installs caused %d full rebuilds; want the index updated in place", n-1)
	}
}
