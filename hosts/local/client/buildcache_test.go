package client

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestBuildOfCached: the build read from a program's file is remembered
// and answered from the cache while the file is the same one; a changed
// file (rewritten, touched) is read again, and a damaged cache is
// replaced.
func TestBuildOfCached(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	exe := filepath.Join(dir, "scriptorium")
	if err := os.WriteFile(exe, data, 0o700); err != nil {
		t.Fatal(err)
	}
	runtime := filepath.Join(dir, "runtime")
	want := BuildOf(exe)
	if want == "" {
		t.Skip("this test binary names no build")
	}
	if got := BuildOfCached(exe, runtime); got != want {
		t.Fatalf("first read: %q, want %q", got, want)
	}
	cache := filepath.Join(runtime, BuildCacheName)
	sig, _ := fileSig(exe)
	// A planted answer for the same file is what the cache says: proof
	// that the file was not read again.
	if err := os.WriteFile(cache, []byte(sig+"\ngo-buildid:planted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := BuildOfCached(exe, runtime); got != "go-buildid:planted" {
		t.Fatalf("same file: %q, want the cached build", got)
	}
	// The same file touched: read again and remembered anew.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(exe, later, later); err != nil {
		t.Fatal(err)
	}
	if got := BuildOfCached(exe, runtime); got != want {
		t.Fatalf("touched: %q, want %q", got, want)
	}
	// Rewritten in place (the same inode, another build's bytes).
	if err := os.WriteFile(exe, []byte("not a program"), 0o700); err != nil {
		t.Fatal(err)
	}
	if got := BuildOfCached(exe, runtime); got != "" {
		t.Fatalf("rewritten: %q, want no build", got)
	}
	for _, damaged := range []string{"", "v1\n", sig} {
		if err := os.WriteFile(exe, data, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cache, []byte(damaged), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := BuildOfCached(exe, runtime); got != want {
			t.Fatalf("cache %q: %q, want %q", damaged, got, want)
		}
	}
}
