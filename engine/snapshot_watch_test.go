package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestSnapshotWatch: a long-lived engine reuses its snapshot without a
// walk while nothing changes, and sees at once every change made behind
// its back: an in-place same-size edit with the mtime reset, a file in a
// new directory, a tree moved in from outside and edited inside.
func TestSnapshotWatch(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the change watch is Linux only")
	}
	ctx := context.Background()
	state := coldFacts(t)
	defer func(d time.Duration) { racyWindow = d }(racyWindow)
	racyWindow = 30 * time.Millisecond
	time.Sleep(60 * time.Millisecond)
	e, err := Open(ctx, Options{StateDir: state, LongLived: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	topics := filepath.Join(state, "memory", "topics")
	s1, err := e.snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s2, _ := e.snapshot(ctx); s2 != s1 {
		t.Fatal("nothing changed, yet the snapshot was walked again")
	}
	// quiet waits until the last change is no longer racy and checks that
	// the snapshot is then reused unwalked: the next change can only be
	// seen through the watch.
	quiet := func() {
		time.Sleep(60 * time.Millisecond)
		a, _ := e.snapshot(ctx)
		if b, _ := e.snapshot(ctx); a != b {
			t.Fatal("the snapshot is walked again although nothing changed")
		}
	}
	text := func(p, id string) string {
		s, err := e.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.blockIn(p, id)
		if err != nil {
			return ""
		}
		return v.Text
	}
	quiet()
	editInPlace(t, filepath.Join(topics, "facts.md"), "bees", "wasp")
	if got := text("topics/facts.md", "0000000a"); !strings.Contains(got, "wasp") {
		t.Fatalf("in-place edit unseen: %q", got)
	}
	quiet()
	os.MkdirAll(filepath.Join(topics, "new"), 0o755)
	os.WriteFile(filepath.Join(topics, "new", "n.md"), []byte("# N\n\nNew fact here. ^0000000e\n"), 0o644)
	if got := text("topics/new/n.md", "0000000e"); got != "New fact here." {
		t.Fatalf("file in a new directory unseen: %q", got)
	}
	quiet()
	editInPlace(t, filepath.Join(topics, "new", "n.md"), "here", "HERE")
	if got := text("topics/new/n.md", "0000000e"); got != "New fact HERE." {
		t.Fatalf("edit in a new directory unseen: %q", got)
	}
	quiet()
	outside := filepath.Join(t.TempDir(), "tree")
	os.MkdirAll(filepath.Join(outside, "deep"), 0o755)
	os.WriteFile(filepath.Join(outside, "deep", "d.md"), []byte("# D\n\nDeep fact one. ^0000000f\n"), 0o644)
	if err := os.Rename(outside, filepath.Join(topics, "moved")); err != nil {
		t.Fatal(err)
	}
	if got := text("topics/moved/deep/d.md", "0000000f"); got != "Deep fact one." {
		t.Fatalf("tree moved in unseen: %q", got)
	}
	quiet()
	editInPlace(t, filepath.Join(topics, "moved", "deep", "d.md"), "one", "two")
	if got := text("topics/moved/deep/d.md", "0000000f"); got != "Deep fact two." {
		t.Fatalf("edit inside a tree moved in unseen: %q", got)
	}
}
