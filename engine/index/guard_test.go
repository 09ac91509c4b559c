package index

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// zapFiles lists the segment files of the index in dir.
func zapFiles(t *testing.T, dir string) []string {
	t.Helper()
	zaps, err := filepath.Glob(filepath.Join(dir, bleveDir, "store", "*.zap"))
	if err != nil || len(zaps) == 0 {
		t.Fatalf("no segments in %s: %v", dir, err)
	}
	return zaps
}

// TestOpen_SegmentChecksum: one flipped byte anywhere in a segment is
// caught by its checksum when the index opens, before bleve reads it
// (where it could panic, or quietly return wrong hits).
func TestOpen_SegmentChecksum(t *testing.T) {
	for _, where := range []string{"start", "middle", "footer"} {
		t.Run(where, func(t *testing.T) {
			dir, docs := builtIndex(t)
			p := zapFiles(t, dir)[0]
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			off := map[string]int{"start": 0, "middle": len(data) / 2, "footer": len(data) - 1}[where]
			data[off] ^= 0x01
			if err := os.WriteFile(p, data, 0o600); err != nil {
				t.Fatal(err)
			}
			reopenDiscarded(t, dir, "checksum mismatch", docs)
		})
	}
}

// TestGuard_PanicIsErrCorrupt: a panic inside bleve becomes ErrCorrupt;
// the handle then needs a rebuild, its stamp is gone so other processes
// discard the directory too, and a Rebuild repairs it.
func TestGuard_PanicIsErrCorrupt(t *testing.T) {
	dir, docs := builtIndex(t)
	ix := mustOpenDir(t, dir)
	err := ix.guard("search", func() error { panic("runtime error: slice bounds out of range") })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "slice bounds") {
		t.Fatalf("guarded panic: %v, want ErrCorrupt naming the panic", err)
	}
	if !ix.NeedsRebuild() || !strings.Contains(ix.RebuildReason(), "damaged index") {
		t.Errorf("NeedsRebuild %v, reason %q", ix.NeedsRebuild(), ix.RebuildReason())
	}
	if _, err := os.Stat(filepath.Join(dir, formatFile)); !os.IsNotExist(err) {
		t.Errorf("format stamp still there after the damage was found: %v", err)
	}
	if err := ix.Rebuild(docs); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	if got := searchRefs(t, ix, "copper"); len(got) != len(docs) {
		t.Errorf("after rebuild: %d hits, want %d", len(got), len(docs))
	}
	if ix.NeedsRebuild() {
		t.Error("still needs a rebuild after Rebuild")
	}
	if _, err := os.Stat(filepath.Join(dir, formatFile)); err != nil {
		t.Errorf("no format stamp after the rebuild: %v", err)
	}
}

// TestOpen_SegmentChecksumAfterVerified: a segment verified once is not
// read again while its signature holds, and a flipped byte written later
// (which moves ctime) is still caught.
func TestOpen_SegmentChecksumAfterVerified(t *testing.T) {
	defer func(d time.Duration) { verifiedRacy = d }(verifiedRacy)
	verifiedRacy = 20 * time.Millisecond
	dir, docs := builtIndex(t)
	time.Sleep(50 * time.Millisecond)
	if err := checkSegments(filepath.Join(dir, bleveDir)); err != nil {
		t.Fatal(err)
	}
	rec := readVerified(filepath.Join(dir, bleveDir))
	zaps := zapFiles(t, dir)
	if len(rec) != len(zaps) {
		t.Fatalf("recorded %d of %d segments as verified", len(rec), len(zaps))
	}
	p := zaps[0]
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	data[len(data)/2] ^= 0x01
	f, err := os.OpenFile(p, os.O_WRONLY, 0) // in place: same inode, same size
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	os.Chtimes(p, fi.ModTime(), fi.ModTime()) // and the old mtime
	reopenDiscarded(t, dir, "checksum mismatch", docs)
}

// TestVerified_DamagedRecord: a record that does not parse verifies
// everything again.
func TestVerified_DamagedRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bleve")
	os.WriteFile(verifiedFile(path), []byte("a.zap 1 2 3 4\nnonsense\n"), 0o644)
	if got := readVerified(path); len(got) != 0 {
		t.Errorf("damaged record read as %v", got)
	}
}
