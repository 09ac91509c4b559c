package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// errInjected is the failure faultOps injects.
var errInjected = errors.New("injected failure")

// faultOps is osOps with chosen steps failing. Keys: "create", "write",
// "chmod", "sync", "close", "rename", "remove", "mkdir", "syncdir".
type faultOps struct {
	fail map[string]bool
}

func (f faultOps) CreateTemp(dir, pattern string) (tempFile, error) {
	if f.fail["create"] {
		return nil, errInjected
	}
	t, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	return faultFile{File: t, fail: f.fail}, nil
}

func (f faultOps) Rename(oldpath, newpath string) error {
	if f.fail["rename"] {
		return errInjected
	}
	return os.Rename(oldpath, newpath)
}

func (f faultOps) Remove(name string) error {
	if f.fail["remove"] {
		return errInjected
	}
	return os.Remove(name)
}

func (f faultOps) Mkdir(name string, perm fs.FileMode) error {
	if f.fail["mkdir"] {
		return errInjected
	}
	return os.Mkdir(name, perm)
}

func (f faultOps) SyncDir(dir string) error {
	if f.fail["syncdir"] {
		return errInjected
	}
	return SyncDir(dir)
}

type faultFile struct {
	*os.File
	fail map[string]bool
}

func (f faultFile) Write(p []byte) (int, error) {
	if f.fail["write"] {
		// A short write, as a full disk would give.
		n, _ := f.File.Write(p[:len(p)/2])
		return n, errInjected
	}
	return f.File.Write(p)
}

func (f faultFile) Sync() error {
	if f.fail["sync"] {
		return errInjected
	}
	return f.File.Sync()
}

func (f faultFile) Chmod(mode fs.FileMode) error {
	if f.fail["chmod"] {
		return errInjected
	}
	return f.File.Chmod(mode)
}

func (f faultFile) Close() error {
	if f.fail["close"] {
		_ = f.File.Close()
		return errInjected
	}
	return f.File.Close()
}

// mustOpen opens a workspace at <tmp>/state/memory.
func mustOpen(t *testing.T, opts *Options) *Workspace {
	t.Helper()
	return mustOpenAt(t, filepath.Join(t.TempDir(), "state", "memory"), opts)
}

func mustOpenAt(t *testing.T, dir string, opts *Options) *Workspace {
	t.Helper()
	w, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	return w
}

func mustWrite(t *testing.T, path string, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// names lists a directory's entry names, sorted.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// tree maps every file below root (slash paths) to its content; directories
// map to "<dir>".
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.IsDir():
			out[rel] = "<dir>"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
