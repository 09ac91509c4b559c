package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestListMarkdown(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"topics/b.md", "topics/a.md", "topics/people/z/c.md", "topics/notes.txt", "topics/people/d.md"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "topics", "a.md"), filepath.Join(root, "topics", "link.md")); err != nil {
		t.Fatal(err)
	}
	files, strays, err := ListMarkdown(root, "topics")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
		if f.Info == nil || f.Info.Size() != 4 {
			t.Errorf("%s: info %v", f.Path, f.Info)
		}
	}
	if want := []string{"topics/a.md", "topics/b.md", "topics/people/d.md", "topics/people/z/c.md"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("files %v, want %v", paths, want)
	}
	var codes []string
	for _, v := range strays {
		codes = append(codes, v.Code+" "+v.Path)
	}
	if want := []string{"symlink topics/link.md", "unexpected_file topics/notes.txt"}; !reflect.DeepEqual(codes, want) {
		t.Errorf("strays %v, want %v (a symlink is never followed)", codes, want)
	}
	if files, strays, err := ListMarkdown(root, "sources"); err != nil || len(files)+len(strays) != 0 {
		t.Errorf("a missing sources/ lists %v %v %v, want nothing", files, strays, err)
	}
}
