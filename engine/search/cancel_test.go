package search

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/scale"
)

// A build whose caller is gone (a SIGTERM, a closed request) stops at the
// next document instead of running to the end (a first build at 1M
// records ran on for 25 minutes after a SIGTERM), leaves nothing staged
// and the index as it was; the next sync builds it whole.
func TestRebuild_CancelledStops(t *testing.T) {
	state := t.TempDir()
	if _, err := scale.Workspace(filepath.Join(state, "memory"), 300, scale.DefaultSeed); err != nil {
		t.Fatal(err)
	}
	e := resyncOpen(t, state)
	c, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	st := stateOf(e)
	ix, done, err := st.openIndex()
	if err != nil {
		t.Fatal(err)
	}
	defer done(false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := st.syncIndex(ctx, ix, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled first build returned %v; want context.Canceled", err)
	}
	if n, err := ix.Count(); err != nil || n != 0 {
		t.Errorf("the index after a cancelled first build: %d documents (%v); want it as it was, empty", n, err)
	}
	if _, err := os.Stat(filepath.Join(ix.Dir(), "bleve.new")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cancelled build left its staging directory: %v", err)
	}
	// A deadline alone does not stop a first build: there is no index to
	// answer from.
	dl, cancelDL := context.WithTimeout(context.Background(), 0)
	defer cancelDL()
	if rebuilt, err := st.syncIndex(dl, ix, c); err != nil || !rebuilt {
		t.Fatalf("a first build past its deadline: rebuilt %v, %v", rebuilt, err)
	}
	if !ix.Describes(c.Fingerprint(), c.Content) {
		t.Error("the build after the cancelled one is not fresh")
	}
}
