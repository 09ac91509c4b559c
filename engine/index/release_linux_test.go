package index

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// mappedRSS is the resident size, in kB, of this process's mapping of
// file, from /proc/self/smaps.
func mappedRSS(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if f := strings.Fields(line); len(f) >= 6 && strings.Contains(f[0], "-") {
			in = strings.HasSuffix(line, " "+file)
			continue
		}
		if v, ok := strings.CutPrefix(line, "Rss:"); ok && in {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb
		}
	}
	t.Fatalf("%s is not mapped", file)
	return 0
}

// mapFile maps size bytes of a new file under dir as a segment is mapped
// (read-only, shared) and reads every page.
func mapFile(t *testing.T, dir string, size int) (string, []byte) {
	t.Helper()
	p := filepath.Join(dir, "00000000000a.zap")
	data := bytes.Repeat([]byte("segment "), size/8)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	sum := 0
	for i := 0; i < len(m); i += 4096 {
		sum += int(m[i])
	}
	if sum == 0 {
		t.Fatal("nothing read")
	}
	return p, m
}

// The merges' mapped segment files stop counting in the process's RSS
// once released, and still read the same; a mapping outside the build's
// directory is left alone.
func TestReleaseMapped(t *testing.T) {
	const size = 8 << 20
	build := filepath.Join(t.TempDir(), "a dir with spaces")
	if err := os.Mkdir(build, 0o700); err != nil {
		t.Fatal(err)
	}
	seg, m := mapFile(t, build, size)
	other, _ := mapFile(t, t.TempDir(), size)
	if kb := mappedRSS(t, seg); kb < size/1024/2 {
		t.Fatalf("the mapping holds %d kB resident before the release; want most of %d", kb, size/1024)
	}
	if n := releaseMapped(build); n < size {
		t.Errorf("released %d bytes; want at least %d", n, size)
	}
	if kb := mappedRSS(t, seg); kb > 64 {
		t.Errorf("%d kB still resident after the release", kb)
	}
	if kb := mappedRSS(t, other); kb < size/1024/2 {
		t.Errorf("a mapping outside the build lost its pages: %d kB resident", kb)
	}
	want := bytes.Repeat([]byte("segment "), size/8)
	if !bytes.Equal(m, want) {
		t.Error("the released mapping reads other bytes")
	}
}
