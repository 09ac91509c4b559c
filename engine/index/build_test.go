package index

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
)

// A rebuild goes through scorch's offline Builder: the index it leaves is
// laid out as one bleve creates (the same meta file, private), its batches
// merged into one segment, no staging left behind, and it takes the
// ordinary incremental writes afterwards.
func TestRebuild_BuilderLayout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	ix := mustOpenDir(t, dir)
	docs := genDocs(2*rebuildBatchSize+500, 5) // three segments to merge
	if err := ix.Rebuild(docs); err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, bleveDir)
	got, err := os.ReadFile(filepath.Join(live, "index_meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(t.TempDir(), "ref")
	idx, err := createBleve(ref)
	if err != nil {
		t.Fatal(err)
	}
	_ = idx.Close()
	want, err := os.ReadFile(filepath.Join(ref, "index_meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("index_meta.json = %s; bleve writes %s", got, want)
	}
	if fi, err := os.Stat(filepath.Join(live, "index_meta.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("index_meta.json mode: %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	top, _ := os.ReadDir(live)
	for _, e := range top {
		if e.Name() != "index_meta.json" && e.Name() != "store" {
			t.Errorf("left in the index: %s", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, newDir)); !os.IsNotExist(err) {
		t.Errorf("staging dir left: %v", err)
	}
	store, _ := os.ReadDir(filepath.Join(live, "store"))
	zaps := 0
	for _, e := range store {
		if strings.HasSuffix(e.Name(), ".zap") {
			zaps++
		}
	}
	if zaps != 1 {
		t.Errorf("%d segments after a build; want the batches merged into 1", zaps)
	}

	visible := 0
	for _, d := range docs {
		if d.Visible {
			visible++
		}
	}
	extra := genDocs(3, 99)
	for i := range extra {
		extra[i].ID = "extra:" + extra[i].ID
		extra[i].Visible = true
	}
	if err := ix.Apply(extra, nil); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	again := mustOpenDir(t, dir)
	if again.NeedsRebuild() {
		t.Fatalf("the built index was not usable on reopening: %s", again.RebuildReason())
	}
	if n, err := again.Count(); err != nil || n != uint64(visible+len(extra)) {
		t.Errorf("Count after reopen = %d, %v; want %d", n, err, visible+len(extra))
	}
}

// A build runs under the soft memory limit buildMemoryLimit and gives the
// process its own limit back afterwards; a lower limit is left alone.
func TestRebuild_MemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	for _, before := range []int64{math.MaxInt64, buildMemoryLimit / 2} {
		debug.SetMemoryLimit(before)
		var during atomic.Int64
		batchWritten = func(int64) { during.Store(debug.SetMemoryLimit(-1)) }
		ix := mustOpen(t)
		err := ix.Rebuild(genDocs(rebuildBatchSize+10, 3))
		batchWritten = nil
		if err != nil {
			t.Fatal(err)
		}
		if want := min(before, buildMemoryLimit); during.Load() != want {
			t.Errorf("limit %d before: %d during the build; want %d", before, during.Load(), want)
		}
		if after := debug.SetMemoryLimit(-1); after != before {
			t.Errorf("limit %d before: %d after the build", before, after)
		}
	}
}

// The limit of a build follows its live heap: the floor while what is live
// fits under it with room, half as much again as what is live above that
// up to the cap, and a fifth more than what is live above the cap (a
// limit under the live heap made a build take 3x the CPU).
func TestBuildLimit(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, buildMemoryLimit},
		{400 << 20, buildMemoryLimit},
		{600 << 20, 900 << 20},
		{700 << 20, buildMemoryCap},
		{1 << 30, 1<<30 + (1<<30)/5},
		{math.MaxUint64, math.MaxInt64/2 + math.MaxInt64/2/5},
	} {
		if got := buildLimit(c.live); got != c.want {
			t.Errorf("buildLimit(%d) = %d; want %d", c.live, got, c.want)
		}
	}
}
