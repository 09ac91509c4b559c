package index

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func openRO(t *testing.T, dir string) *Index {
	t.Helper()
	ix, err := OpenWith(dir, Options{ReadOnly: true, LockTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// TestReadOnly_SharedWithReaders: read-only handles coexist (in any
// process: the lock is shared), search, and refuse writes; a writable open
// waits for them and gets the index once they close.
func TestReadOnly_SharedWithReaders(t *testing.T) {
	dir, docs := builtIndex(t)
	a, b := openRO(t, dir), openRO(t, dir)
	for _, ix := range []*Index{a, b} {
		hits, err := ix.Search(Query{Text: "copper", Limit: 100})
		if err != nil || len(hits) != len(docs) {
			t.Fatalf("read-only search: %d hits, %v", len(hits), err)
		}
		if fp, err := ix.Meta("fingerprint"); err != nil || fp != "abc" {
			t.Fatalf("meta %q %v", fp, err)
		}
		if err := ix.Apply(docs[:1], nil); !errors.Is(err, ErrReadOnly) {
			t.Errorf("apply on a read-only handle: %v", err)
		}
		if err := ix.Rebuild(docs); !errors.Is(err, ErrReadOnly) {
			t.Errorf("rebuild on a read-only handle: %v", err)
		}
	}
	if _, err := OpenWith(dir, Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("writable open beside readers: %v, want ErrLocked", err)
	}
	a.Close()
	b.Close()
	w, err := OpenWith(dir, Options{LockTimeout: time.Second})
	if err != nil {
		t.Fatalf("writable open after the readers closed: %v", err)
	}
	defer w.Close()
	if _, err := OpenWith(dir, Options{ReadOnly: true, LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrLocked) {
		t.Fatalf("read-only open beside a writer: %v, want ErrLocked", err)
	}
}

// TestReadOnly_SeesTheIndexAsOpened: a read-only handle does not follow
// later writes; a new one does.
func TestReadOnly_SeesTheIndexAsOpened(t *testing.T) {
	dir, _ := builtIndex(t)
	ro := openRO(t, dir)
	ro.Close()
	w, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.ApplyWithMeta([]Doc{source("p/t/new", "zinc ingot")}, nil, map[string]string{"fingerprint": "def"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ro = openRO(t, dir)
	defer ro.Close()
	if fp, _ := ro.Meta("fingerprint"); fp != "def" {
		t.Errorf("fingerprint %q after the write", fp)
	}
	if hits, err := ro.Search(Query{Text: "zinc", Limit: 10}); err != nil || len(hits) != 1 {
		t.Errorf("new document: %v %v", hits, err)
	}
}

// TestReadOnly_NeverRepairs: a missing, unstamped or damaged index is
// ErrUnavailable for a reader, which leaves the directory as it is.
func TestReadOnly_NeverRepairs(t *testing.T) {
	if _, err := OpenWith(filepath.Join(t.TempDir(), "none"), Options{ReadOnly: true}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("missing index: %v", err)
	}
	dir, _ := builtIndex(t)
	os.MkdirAll(filepath.Join(dir, newDir), 0o755) // a writer's rebuild in progress
	if err := os.Remove(filepath.Join(dir, formatFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenWith(dir, Options{ReadOnly: true}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("unstamped index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, bleveDir)); err != nil {
		t.Errorf("a reader discarded the index: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, newDir)); err != nil {
		t.Errorf("a reader swept a writer's staging directory: %v", err)
	}
}
