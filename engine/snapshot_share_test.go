package engine

import (
	"context"
	"testing"
	"time"
)

// TestSharedSnapshot: two engines of one workspace in a process hold one
// parse of an unchanged file, and the sharing ends with the last Close.
func TestSharedSnapshot(t *testing.T) {
	ctx := context.Background()
	state := coldFacts(t)
	time.Sleep(racyWindow + 100*time.Millisecond) // so an unchanged file is reused on its signature
	a, err := Open(ctx, Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, Options{StateDir: state, Tier: "paired"})
	if err != nil {
		t.Fatal(err)
	}
	sa, err := a.snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const p = "topics/facts.md"
	if sa.topics[p] == nil || sa.topics[p] != sb.topics[p] {
		t.Errorf("the second engine parsed %s again instead of sharing the first's parse", p)
	}
	a.Close()
	if newestShared(a.ws.Root()) == nil {
		t.Error("the shared read went while an engine of the workspace is open")
	}
	a.Close() // twice is harmless
	b.Close()
	if newestShared(a.ws.Root()) != nil {
		t.Error("the shared read outlives every engine of the workspace")
	}
}
