package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A memory copied into place (or written by scale/gen) with the modes of
// a `cp -a`, 0755 folders and 0644 files, and no .scriptorium/ yet: the
// first verb is a search, which builds the index. The state dir used to
// be tightened only by the verb after it, and the chmod moved every
// file's ctime, so that verb found the index stale (at 1M records, a
// second 25-minute build; BENCHMARKS.md, issue 26, fresh1m).
func TestCopiedMemory_FirstSearchLeavesIndexFresh(t *testing.T) {
	state := fixtureState(t, "valid")
	if err := os.RemoveAll(filepath.Join(state, "memory", ".scriptorium")); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(state, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, "", "search", "the", "--json", "--state", state); r.code != 0 {
		t.Fatalf("search: exit %d %s", r.code, r.stderr)
	}
	r := runCLI(t, "", "status", "--json", "--state", state)
	if r.code != 0 {
		t.Fatalf("status: exit %d %s", r.code, r.stderr)
	}
	idx, _ := oneJSON(t, r.stdout)["index"].(map[string]any)
	if fresh, _ := idx["fresh"].(bool); !fresh {
		t.Errorf("the index built by the first search is not fresh for the next verb: %v (stderr %q)", idx, r.stderr)
	}
	if loose := looseModes(t, state); len(loose) > 0 {
		t.Errorf("not private after the first verb: %v", loose)
	}
}
