package search

import (
	"context"
	"path/filepath"
	"testing"

	"scriptorium/engine"
	"scriptorium/workspace/treetest"
)

// warmCopy copies a fixture state dir, opens an engine on the copy and
// reads its full snapshot (the reference the cold paths are compared
// with).
func warmCopy(t *testing.T, src string) (state string, warm *engine.Engine, c engine.Corpus) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(src, state); err != nil {
		t.Fatal(err)
	}
	warm, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if c, err = warm.Corpus(context.Background()); err != nil {
		t.Fatal(err)
	}
	return state, warm, c
}
