package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// The snapshot cache must never serve a stale parse: an edit behind the
// engine's back, in place or by rename, with or without a size change, is
// seen by the next read.
func TestSnapshotCache_SeesEveryEdit(t *testing.T) {
	state := t.TempDir()
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	p := filepath.Join(e.Root(), "topics", "a.md")
	write := func(text string, rename bool) {
		t.Helper()
		if rename {
			tmp := p + ".new"
			if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, p); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(want string) {
		t.Helper()
		v, err := e.Get(ctx, "^aaaaaaaa")
		if err != nil {
			t.Fatal(err)
		}
		if got := v.(result.BlockView).Text; got != want {
			t.Fatalf("block text %q, want %q", got, want)
		}
	}
	write("# A\n\nfirst version ^aaaaaaaa\n", false)
	check("first version")
	write("# A\n\nsecond version, longer ^aaaaaaaa\n", false) // in place, new size
	check("second version, longer")
	time.Sleep(10 * time.Millisecond)
	write("# A\n\nsecond VERSION, longer ^aaaaaaaa\n", false) // in place, same size
	check("second VERSION, longer")
	write("# A\n\nthird version by rename ^aaaaaaaa\n", true)
	check("third version by rename")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Get(ctx, "^aaaaaaaa"); errcode.As(err).Code != errcode.NotFound {
		t.Fatalf("after delete: %v, want NOT_FOUND", err)
	}
}
