package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDurableSteps(t *testing.T) {
	root := t.TempDir()
	var fsys FS = osOps{}
	dir := filepath.Join(root, "a", "b")
	if err := MkdirAllSynced(fsys, root, dir); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAllSynced(fsys, root, dir); err != nil {
		t.Fatalf("an existing directory: %v", err)
	}
	src := filepath.Join(root, "staged")
	if err := WriteSynced(fsys, src, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteSynced(fsys, src, []byte("again\n")); err == nil {
		t.Fatal("WriteSynced replaced an existing file")
	}
	target := filepath.Join(dir, "t.md")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CopyInto(fsys, src, target); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new\n" {
		t.Errorf("target %q", data)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Errorf("the source is still there: %v", err)
	}
	if err := CopyInto(fsys, src, target); err == nil {
		t.Error("CopyInto of a missing source succeeded")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if data, _ := os.ReadFile(target); string(data) != "new\n" || len(left) != 0 {
		t.Errorf("a failed copy changed the target (%q) or left %v", data, left)
	}
}
