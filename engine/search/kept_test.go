package search

import (
	"context"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// A cold recall checks the index's freshness once: the trust lookup takes
// the walk and the open index its search found fresh (kept.go), and gives
// the trust a fresh walk gives.
func TestKept_RecallWalksOnce(t *testing.T) {
	ctx := context.Background()
	state := coldFacts(t)
	// What engine/recall does for a prompt: the search, then the wanted
	// and hit topic files with their blocks' trust.
	type material struct {
		Hits  []result.SearchResult
		Files map[string]*engine.RecallFile
	}
	read := func(text string) (material, Stats) {
		e, err := engine.Open(ctx, engine.Options{StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		var m material
		paths := []string{"topics/core.md", "topics/facts.md"}
		if text != "" {
			if m.Hits, err = e.Search(ctx, result.SearchQuery{Text: text, Limit: 10}); err != nil {
				t.Fatal(err)
			}
			for _, h := range m.Hits {
				if h.Kind == "topic" {
					paths = append(paths, h.Path)
				}
			}
		}
		if m.Files, err = e.TrustedTopics(ctx, paths); err != nil {
			t.Fatal(err)
		}
		return m, StatsOf(e)
	}
	m, st := read("cello")
	if st.Fast != 1 || st.Walks != 1 {
		t.Fatalf("a cold recall: %d fast searches, %d walks; want 1 and 1", st.Fast, st.Walks)
	}
	if len(m.Hits) != 1 || m.Hits[0].Ref != "0000000b" {
		t.Fatalf("hits %+v", m.Hits)
	}
	f := m.Files["topics/facts.md"]
	if f == nil || !f.Trusted["0000000a"] || !f.Trusted["0000000b"] || len(f.Trusted) != 2 {
		t.Fatalf("facts.md as recalled: %+v", f)
	}
	// No query: no search to take the walk from; the lookup walks itself
	// and finds the same trust.
	m2, st2 := read("")
	if st2.Walks != 1 || st2.Fast != 0 {
		t.Fatalf("a recall without a query: %d walks, %d fast searches; want 1 and 0", st2.Walks, st2.Fast)
	}
	if f2 := m2.Files["topics/facts.md"]; f2 == nil || len(f2.Trusted) != 2 {
		t.Fatalf("facts.md without a query: %+v", f2)
	}
}

// What a cold search keeps never stands in a writer's way: an install in
// the same engine right after it, and another engine's, go through, and
// the next search sees the install.
func TestKept_InstallAfterColdSearch(t *testing.T) {
	ctx := context.Background()
	state := coldFacts(t)
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if res, err := e.Search(ctx, result.SearchQuery{Text: "bees"}); err != nil || len(res) != 1 || StatsOf(e).Fast != 1 {
		t.Fatalf("cold search: %v %v fast=%d", res, err, StatsOf(e).Fast)
	}
	rev, err := e.Revision()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{
		{Op: "append", Path: "topics/facts.md", Content: ptr("The owner grows figs by the door. ^0000000c\n")},
	}}); err != nil {
		t.Fatalf("install after a cold search: %v", err)
	}
	// Another engine (another process's, as far as the index's lock goes).
	other, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if res, err := other.Search(ctx, result.SearchQuery{Text: "figs"}); err != nil || len(res) != 1 {
		t.Fatalf("search in another engine: %v %v", res, err)
	}
	if res, err := e.Search(ctx, result.SearchQuery{Text: "figs"}); err != nil || len(res) != 1 {
		t.Fatalf("search after the install: %v %v", res, err)
	}
}
