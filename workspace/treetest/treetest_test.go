package treetest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCopyStateDiff(t *testing.T) {
	src := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(src, "a", "skip"), 0o755))
	must(os.WriteFile(filepath.Join(src, "a", "f.md"), []byte("one\r\n"), 0o644))
	must(os.WriteFile(filepath.Join(src, "a", "skip", "x"), []byte("x"), 0o644))
	must(os.Symlink("../elsewhere", filepath.Join(src, "link")))
	dst := filepath.Join(t.TempDir(), "copy")
	must(CopyTree(src, dst))
	a, err := State(src)
	must(err)
	b, err := State(dst)
	must(err)
	if d := Diff(a, b); d != "" || len(a) != 3 || a["link"] != "symlink:../elsewhere" {
		t.Fatalf("copy differs or state is wrong: %q %v", d, a)
	}
	must(os.WriteFile(filepath.Join(dst, "a", "f.md"), []byte("one\n"), 0o644))
	must(os.WriteFile(filepath.Join(dst, "new"), nil, 0o644))
	must(os.Remove(filepath.Join(dst, "link")))
	b, err = State(dst)
	must(err)
	if got, want := Diff(a, b), "~ a/f.md\n- link\n+ new"; got != want {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	c, err := State(src, "a")
	must(err)
	if len(c) != 1 {
		t.Errorf("skip did not skip: %v", c)
	}
}
