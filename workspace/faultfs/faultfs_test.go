package faultfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"scriptorium/workspace"
)

func put(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func files(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." {
				out[filepath.ToSlash(rel)+"/"] = ""
			}
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeFile(fsys workspace.FS, p, data string, sync bool) error {
	h, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := h.Write([]byte(data)); err != nil {
		h.Close()
		return err
	}
	if sync {
		if err := h.Sync(); err != nil {
			h.Close()
			return err
		}
	}
	return h.Close()
}

// The model keeps exactly what was fsynced: a file's bytes need its own
// fsync, its name needs its directory's.
func TestPowerLoss_KeepsOnlyWhatWasSynced(t *testing.T) {
	root := t.TempDir()
	put(t, filepath.Join(root, "old.txt"), "old")
	put(t, filepath.Join(root, "db", "state.db"), "sqlite")
	f := NewPowerLoss(root, -1, func(rel string) bool { return rel == "db/state.db" })
	if err := f.StartPowerLoss(); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(writeFile(f, filepath.Join(root, "unsynced.txt"), "a", false)) // name durable below, bytes never
	must(writeFile(f, filepath.Join(root, "synced.txt"), "b", true))    // name durable below, bytes too
	must(f.Mkdir(filepath.Join(root, "d"), 0o755))
	must(writeFile(f, filepath.Join(root, "d", "inner.txt"), "c", true))
	must(f.SyncDir(filepath.Join(root, "d")))
	must(writeFile(f, filepath.Join(root, "d", "late.txt"), "e", true)) // after d's fsync: lost
	// A rename across directories with only the source's directory
	// fsynced: the file is in neither.
	must(f.Rename(filepath.Join(root, "old.txt"), filepath.Join(root, "d", "moved.txt")))
	must(f.SyncDir(root))
	must(os.WriteFile(filepath.Join(root, "db", "state.db"), []byte("sqlite v2"), 0o644))
	must(writeFile(f, filepath.Join(root, "after-sync.txt"), "f", true)) // name never synced: lost
	must(f.Restore())
	want := map[string]string{
		"unsynced.txt": "",
		"synced.txt":   "b",
		"d/":           "",
		"d/inner.txt":  "c",
		"db/":          "",
		"db/state.db":  "sqlite v2", // untracked: left as the other writer left it
	}
	got := files(t, root)
	if len(got) != len(want) {
		t.Fatalf("after power loss: %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("after power loss: %v, want %v", got, want)
		}
	}
}

// A crash stops every operation from its index on.
func TestPowerLoss_CrashStopsEverything(t *testing.T) {
	root := t.TempDir()
	f := NewPowerLoss(root, 2, nil)
	if err := f.StartPowerLoss(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "x")
	h, err := f.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644) // #0
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write([]byte("data")); err != nil { // #1
		t.Fatal(err)
	}
	if err := h.Sync(); !errors.Is(err, ErrPowerLost) { // #2
		t.Fatalf("sync after the crash: %v", err)
	}
	if err := h.Close(); !errors.Is(err, ErrPowerLost) {
		t.Fatalf("close after the crash: %v", err)
	}
	if err := f.Mkdir(filepath.Join(root, "d"), 0o755); !errors.Is(err, ErrPowerLost) {
		t.Fatalf("mkdir after the crash: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "d")); !os.IsNotExist(err) {
		t.Fatal("an operation after the crash happened")
	}
	if err := f.Restore(); err != nil {
		t.Fatal(err)
	}
	if got := files(t, root); len(got) != 0 {
		t.Fatalf("after power loss: %v", got)
	}
}

// A fault fails the chosen operation (a write short), once or from then on.
func TestFault_FailsTheChosenStep(t *testing.T) {
	for _, sticky := range []bool{false, true} {
		root := t.TempDir()
		f := New()
		f.Start()
		f.FailAt(1, syscall.ENOSPC, sticky)
		err := writeFile(f, filepath.Join(root, "x"), "abcdef", true)
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("sticky=%v: write: %v", sticky, err)
		}
		data, _ := os.ReadFile(filepath.Join(root, "x"))
		if string(data) != "abc" {
			t.Errorf("sticky=%v: a failed write wrote %q, want a short write", sticky, data)
		}
		err = f.Mkdir(filepath.Join(root, "d"), 0o755)
		if sticky != (err != nil) {
			t.Errorf("sticky=%v: the next operation: %v", sticky, err)
		}
		tr := f.Trace()
		if len(tr) < 3 || tr[0].Kind != Create || tr[1].Kind != Write || !strings.HasSuffix(tr[1].Path, "x") {
			t.Errorf("trace: %v", tr)
		}
		if inj := f.Injected(); len(inj) == 0 || inj[0].Index != 1 {
			t.Errorf("injected: %v", inj)
		}
	}
}
