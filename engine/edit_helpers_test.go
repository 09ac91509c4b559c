package engine

import (
	"context"
	"path/filepath"
	"testing"

	"scriptorium/engine/result"
	"scriptorium/workspace/treetest"
)

// Helpers for the staleness tests: edits made behind the engine's back
// (workspace/treetest).

func editInPlace(t *testing.T, p, from, to string) { treetest.EditInPlace(t, p, from, to) }

// warmCopy copies a fixture state dir, opens an engine on the copy and
// reads its full snapshot (the reference the cold paths are compared
// with).
func warmCopy(t *testing.T, src string) (state string, warm *Engine, s *snapshot) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(src, state); err != nil {
		t.Fatal(err)
	}
	warm, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	if s, err = warm.snapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	return state, warm, s
}

func gitIn(t *testing.T, dir string) func(args ...string) { return treetest.Git(t, dir) }

// coldFacts creates a workspace with one topic file through the engine
// and returns the state dir (engine/search's coldFacts also builds the
// index; the core's tests link no search service).
func coldFacts(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	state := t.TempDir()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rev := int64(0)
	content := "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n\nThe owner plays the cello on Sundays. ^0000000b\n"
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "create", Path: "topics/facts.md", Content: &content}}}); err != nil {
		t.Fatal(err)
	}
	return state
}
