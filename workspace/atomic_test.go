package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic_BytesExact(t *testing.T) {
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"crlf and trailing spaces", "a  \r\nb\r\n\r\n"},
		{"no final newline", "abc"},
		{"line and paragraph separators", "x\u2028y\u2029z\n"},
		{"nul and invalid utf8", "\x00\xff\xfe\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			rt := filepath.Join(dir, "rt")
			if err := os.Mkdir(rt, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, "f.md")
			if err := WriteFileAtomic(rt, target, []byte(tt.data)); err != nil {
				t.Fatal(err)
			}
			if got := mustRead(t, target); got != tt.data {
				t.Errorf("content = %q, want %q", got, tt.data)
			}
			if left := names(t, rt); len(left) != 0 {
				t.Errorf("temp files left in runtime dir: %v", left)
			}
		})
	}
}

func TestWriteFileAtomic_ModeReplaceAndParents(t *testing.T) {
	dir := t.TempDir()
	rt := filepath.Join(dir, "rt")
	if err := os.Mkdir(rt, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "a", "b", "c.md")
	if err := WriteFileAtomic(rt, target, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(rt, target, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, target); got != "two" {
		t.Errorf("content = %q, want %q", got, "two")
	}
	fi, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600 (a memory is private)", fi.Mode().Perm())
	}
	for _, d := range []string{filepath.Join(dir, "a"), filepath.Join(dir, "a", "b")} {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("parent %s not created: %v", d, err)
		}
	}
}

func TestWriteFileAtomic_ParentIsFile(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "a"), "file")
	if err := WriteFileAtomic(dir, filepath.Join(dir, "a", "b.md"), []byte("x")); err == nil {
		t.Fatal("write under a regular file succeeded")
	}
}

func TestWriteFileAtomic_FailuresKeepOldBytes(t *testing.T) {
	for _, step := range []string{"create", "write", "chmod", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			rt := filepath.Join(dir, "rt")
			if err := os.Mkdir(rt, 0o755); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(dir, "f.md")
			mustWrite(t, target, "old bytes\n")
			ops := faultOps{fail: map[string]bool{step: true}}
			err := writeFileAtomic(ops, rt, target, []byte("new bytes\n"), true)
			if !errors.Is(err, errInjected) {
				t.Fatalf("err = %v, want the injected failure", err)
			}
			if got := mustRead(t, target); got != "old bytes\n" {
				t.Errorf("target = %q after failed write, want the old bytes", got)
			}
			if left := names(t, rt); len(left) != 0 {
				t.Errorf("temp files left after failure: %v", left)
			}
		})
	}
}

func TestWriteFileAtomic_FailingDirSyncFails(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f.md")
	ops := faultOps{fail: map[string]bool{"syncdir": true}}
	err := writeFileAtomic(ops, dir, target, []byte("x"), true)
	if !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if !strings.Contains(err.Error(), "not durable") {
		t.Errorf("error %q does not say the write is not durable", err)
	}
}

func TestWriteFileAtomic_FailingMkdirFails(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "new", "f.md")
	ops := faultOps{fail: map[string]bool{"mkdir": true}}
	if err := writeFileAtomic(ops, dir, target, []byte("x"), true); !errors.Is(err, errInjected) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Errorf("target exists after failed mkdir: %v", err)
	}
}

func TestWriteFileAtomic_NotDurableSkipsFsync(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f")
	// With durable=false neither fsync runs, so failing them changes nothing.
	ops := faultOps{fail: map[string]bool{"sync": true, "syncdir": true}}
	if err := writeFileAtomic(ops, dir, target, []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, target); got != "x" {
		t.Errorf("content = %q", got)
	}
}

func TestWriteFileAtomic_TempNameIsSweepable(t *testing.T) {
	dir := t.TempDir()
	rt := filepath.Join(dir, "rt")
	if err := os.Mkdir(rt, 0o755); err != nil {
		t.Fatal(err)
	}
	// Capture the temp file's name by failing the rename, then check the
	// sweep would recognise it as ours and as owned by a live pid.
	var name string
	ops := captureOps{faultOps: faultOps{fail: map[string]bool{"rename": true, "remove": true}}, created: &name}
	_ = writeFileAtomic(ops, rt, filepath.Join(dir, "f"), []byte("x"), true)
	base := filepath.Base(name)
	if !strings.HasPrefix(base, tempPrefix) {
		t.Fatalf("temp name %q lacks prefix %q", base, tempPrefix)
	}
	if pid, ok := tempOwner(base); !ok || pid != os.Getpid() {
		t.Errorf("tempOwner(%q) = %d, %v; want our pid %d", base, pid, ok, os.Getpid())
	}
}

type captureOps struct {
	faultOps
	created *string
}

func (c captureOps) CreateTemp(dir, pattern string) (tempFile, error) {
	f, err := c.faultOps.CreateTemp(dir, pattern)
	if err == nil {
		*c.created = f.Name()
	}
	return f, err
}

func TestSyncDir_Missing(t *testing.T) {
	if err := SyncDir(filepath.Join(t.TempDir(), "nope")); err == nil {
		t.Fatal("SyncDir on a missing directory succeeded")
	}
	if err := SyncDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestWriteFileBestEffort_ReplacesWhole: the best-effort write replaces
// the file whole, private, and leaves no temp file behind.
func TestWriteFileBestEffort_ReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	rt := filepath.Join(dir, "rt")
	target := filepath.Join(rt, "status.json")
	for _, data := range []string{"one, longer", "two"} {
		if err := WriteFileBestEffort(rt, target, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got := mustRead(t, target); got != data {
			t.Errorf("content = %q, want %q", got, data)
		}
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode: %v, %v", fi, err)
	}
	if ents, _ := os.ReadDir(rt); len(ents) != 1 {
		t.Errorf("runtime dir holds %d entries, want the file alone", len(ents))
	}
}
