package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTreeWatch_Generations: every change under a watched tree moves the
// generation, a directory made later is watched too, and a root going
// away turns the watch off (a reader must walk again).
func TestTreeWatch_Generations(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"topics", "sources"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var w TreeWatch
	w.Start(root, "topics", "sources")
	defer w.Close()
	g0, ok := w.Poll()
	if !ok {
		t.Fatal("watch off right after Start")
	}
	if err := os.WriteFile(filepath.Join(root, "topics", "a.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	g1, ok := w.Poll()
	if !ok || g1 == g0 {
		t.Fatalf("a write under topics/: gen %d → %d, trusted %v", g0, g1, ok)
	}
	sub := filepath.Join(root, "sources", "2026")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	g2, _ := w.Poll()
	if err := os.WriteFile(filepath.Join(sub, "s.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g3, ok := w.Poll(); !ok || g3 == g2 {
		t.Fatalf("a write in a new sub-directory: gen %d → %d, trusted %v", g2, g3, ok)
	}
	if g, ok := w.Poll(); !ok || g != func() uint64 { g, _ := w.Poll(); return g }() {
		t.Fatalf("no change: gen moved (%d) or watch off (%v)", g, ok)
	}
	if err := os.RemoveAll(filepath.Join(root, "topics")); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Poll(); ok {
		t.Fatal("the topics/ root went away and the watch is still trusted")
	}
	w.Close()
	if _, ok := w.Poll(); ok {
		t.Fatal("trusted after Close")
	}
}

// TestTreeWatch_StartFails: a missing tree leaves the watch off.
func TestTreeWatch_StartFails(t *testing.T) {
	var w TreeWatch
	w.Start(t.TempDir(), "topics")
	if _, ok := w.Poll(); ok {
		t.Fatal("watch on over a missing tree")
	}
}
