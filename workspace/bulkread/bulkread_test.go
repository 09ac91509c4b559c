package bulkread

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFile_SameBytesOwnCapacity: with shared buffers on, every file
// reads as os.ReadFile reads it (empty, small, over a quarter of a buffer,
// more than a buffer's worth in all), each slice's capacity is its length,
// and appending to one leaves every other file's bytes as they were.
func TestReadFile_SameBytesOwnCapacity(t *testing.T) {
	Enable()
	defer enabled.Store(false)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(26, 16))
	sizes := []int{0, 1, 4096, chunkSize/4 + 1, chunkSize / 4}
	for range 300 {
		sizes = append(sizes, r.IntN(64<<10))
	}
	var names []string
	for i, n := range sizes {
		data := make([]byte, n)
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		name := filepath.Join(dir, fmt.Sprintf("f%d.md", i))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	got := make([][]byte, len(names))
	for i, name := range names {
		b, err := ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if shared := len(b) > 0 && len(b) <= chunkSize/4; shared && cap(b) != len(b) {
			t.Fatalf("%s: capacity %d, length %d", name, cap(b), len(b))
		}
		got[i] = b
	}
	for i := range got {
		_ = append(got[i], "appended"...)
	}
	for i, name := range names {
		want, _ := os.ReadFile(name)
		if !bytes.Equal(got[i], want) {
			t.Fatalf("%s (%d bytes): other bytes than os.ReadFile's", name, len(want))
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.md")); !os.IsNotExist(err) {
		t.Fatalf("a missing file: %v", err)
	}
	if b, err := ReadFile(dir); err == nil {
		t.Fatalf("a directory read as %d bytes", len(b))
	}
}

// TestReadFile_Off: without Enable it is os.ReadFile, one allocation per
// file (a long-lived process must not keep a buffer for a neighbour).
func TestReadFile_Off(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := len(chunk)
	b, err := ReadFile(name)
	if err != nil || string(b) != "hello" || len(chunk) != before {
		t.Fatalf("got %q %v; the shared buffer went from %d to %d bytes", b, err, before, len(chunk))
	}
}

// TestReadFile_HugePages logs whether the kernel gave huge pages (it may
// not: THP off, or no room); nothing depends on it.
func TestReadFile_HugePages(t *testing.T) {
	Enable()
	defer enabled.Store(false)
	dir := t.TempDir()
	for i := range 400 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d", i)), bytes.Repeat([]byte("x"), 16<<10), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadFile(filepath.Join(dir, fmt.Sprintf("%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	if data, err := os.ReadFile("/proc/self/smaps_rollup"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "AnonHugePages") {
				t.Log(l)
			}
		}
	}
}
