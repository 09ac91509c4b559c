package filewatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// wait fails unless changed reports within a generous bound (events
// arrive in microseconds; the bound only stops a hung test).
func wait(t *testing.T, changed <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatalf("no report after %s", what)
	}
}

// TestWatch_ReportsTheNamedFiles: creating, touching and removing a named
// file is reported, and so is the directory going; a report left unread
// coalesces with the next.
func TestWatch_ReportsTheNamedFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "write.intent")
	changed, stop, err := Watch(dir, "write.intent")
	if err != nil {
		t.Skipf("cannot watch here: %v", err)
	}
	defer stop()
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	wait(t, changed, "create")
	for range 3 {
		later := time.Now().Add(time.Second)
		if err := os.Chtimes(p, later, later); err != nil {
			t.Fatal(err)
		}
	}
	wait(t, changed, "touch")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	wait(t, changed, "remove")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	wait(t, changed, "the directory's removal")
	stop()
	stop() // twice is harmless
}
