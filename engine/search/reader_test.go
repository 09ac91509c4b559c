package search

import (
	"context"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
)

// TestIndexReader_SharedAndYielding: a long-lived engine keeps a read-only
// handle between searches; another engine (another process, as far as
// the locks go) searches beside it, and installs without waiting for it to
// go idle and without leaving the index stale; the long-lived engine then
// answers the new state from a reopened handle, with no rebuild.
func TestIndexReader_SharedAndYielding(t *testing.T) {
	ctx := context.Background()
	state := coldFacts(t)
	a, err := engine.Open(ctx, engine.Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if res, err := a.Search(ctx, result.SearchQuery{Text: "bees"}); err != nil || len(res) != 1 {
		t.Fatalf("long-lived search: %v %v", res, err)
	}
	if res, err := a.Search(ctx, result.SearchQuery{Text: "cello"}); err != nil || len(res) != 1 {
		t.Fatalf("long-lived search: %v %v", res, err)
	}
	stateOf(a).reader.mu.Lock()
	held := stateOf(a).reader.ix != nil
	stateOf(a).reader.mu.Unlock()
	if !held {
		t.Fatal("the long-lived engine holds no index handle after searching")
	}

	b, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if res, err := b.Search(ctx, result.SearchQuery{Text: "roof"}); err != nil || len(res) != 1 || StatsOf(b).Fast != 1 {
		t.Fatalf("a one-shot search beside the held handle: %v %v (fast %d)", res, err, StatsOf(b).Fast)
	}
	rev, err := b.Revision()
	if err != nil {
		t.Fatal(err)
	}
	more := "The owner brews mead in autumn. ^0000000d\n"
	start := time.Now()
	if _, err := b.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "append", Path: "topics/facts.md", Content: &more}}}); err != nil {
		t.Fatal(err)
	}
	t.Logf("install beside a held reader took %v", time.Since(start))
	if n := StatsOf(b).Rebuilds; n != 0 {
		t.Fatalf("the install rebuilt the index %d times", n)
	}
	// The install updated the index in place: the other engine's handle was
	// let go, not waited out (a failed update would leave it stale). b
	// keeps its writable handle (hold.go) until a reader asks for it, as
	// this one does.
	ix, err := openWaiting(stateOf(a).dir, index.Options{ReadOnly: true, LockTimeout: time.Second}, announceRead)
	if err != nil {
		t.Fatal(err)
	}
	if hits, err := ix.Search(index.Query{Text: "mead", Limit: 10}); err != nil || len(hits) != 1 {
		t.Fatalf("the install's block is not in the index: %v %v", hits, err)
	}
	ix.Close()

	if res, err := a.Search(ctx, result.SearchQuery{Text: "mead"}); err != nil || len(res) != 1 {
		t.Fatalf("long-lived search after the other's install: %v %v", res, err)
	}
	if n := StatsOf(a).Rebuilds; n != 0 {
		t.Errorf("the long-lived engine rebuilt the index %d times", n)
	}
	a.Close()
	w, err := index.OpenWith(stateOf(a).dir, index.Options{LockTimeout: -1})
	if err != nil {
		t.Fatalf("the index is still held after Close: %v", err)
	}
	w.Close()
}

// TestIndexReader_IdleWakesForNothing: a long-lived engine's held handle
// costs nothing while nothing happens: its poller looks at the write
// intent once when it starts and then only when the intent is touched
// (it ticked every readerPoll, the bulk of an idle serve's CPU), and
// still lets go at once when a writer announces itself.
func TestIndexReader_IdleWakesForNothing(t *testing.T) {
	ctx := context.Background()
	state := coldFacts(t)
	a, err := engine.Open(ctx, engine.Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if res, err := a.Search(ctx, result.SearchQuery{Text: "bees"}); err != nil || len(res) != 1 {
		t.Fatalf("long-lived search: %v %v", res, err)
	}
	r := &stateOf(a).reader
	time.Sleep(10 * readerPoll) // a ticker would have looked ten times
	if n := r.looks.Load(); n > 1 {
		t.Fatalf("an idle reader looked at the write intent %d times in %v", n, 10*readerPoll)
	}
	announceWrite(stateOf(a).dir)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(readerPoll) {
		r.mu.Lock()
		held := r.ix != nil
		r.mu.Unlock()
		if !held {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the held handle was not let go after a writer announced itself")
		}
	}
}
