package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"scriptorium/errcode"
)

// refWalk is the walk ListMarkdown did before statAt: filepath.WalkDir and
// each file's lstat by its full path.
func refWalk(t *testing.T, root, sub string) ([]Listed, []errcode.Violation) {
	t.Helper()
	var files []Listed
	var strays []errcode.Violation
	err := filepath.WalkDir(filepath.Join(root, sub), func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return filepath.SkipDir
			}
			return err
		}
		rel, _ := filepath.Rel(root, q)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			strays = append(strays, errcode.Violation{Code: "symlink", Path: rel, Message: "symbolic links are not allowed in the workspace"})
		case d.IsDir():
		case d.Type().IsRegular() && strings.HasSuffix(rel, ".md"):
			fi, err := os.Lstat(q)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, Listed{Path: rel, Info: fi})
		default:
			strays = append(strays, errcode.Violation{Code: "unexpected_file", Path: rel, Message: "only .md files belong under " + sub + "/"})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, strays
}

// TestListMarkdown_AsWalkDir: the walk that stats each file relative to its
// directory lists the same files, strays (in the same order) and lstat
// information as WalkDir with a full-path lstat.
func TestListMarkdown_AsWalkDir(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"sources/b/_v2/x.md", "sources/b/_v2/a.md", "sources/a/legacy.md", "sources/a/z.txt",
		"sources/top.md", "sources/c/_v2/deep/er/y.md", "sources/c/notes", "sources/c/_v2/Z.md"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(strings.Repeat("x", len(p))), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(root, "sources/a/legacy.md"), 0o400|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"sources/b/_v2/l.md": "x.md", "sources/dirlink": "b", "sources/c/_v2/m.md": "missing"} {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	files, strays, err := ListMarkdown(root, "sources")
	if err != nil {
		t.Fatal(err)
	}
	wantFiles, wantStrays := refWalk(t, root, "sources")
	if !reflect.DeepEqual(strays, wantStrays) {
		t.Errorf("strays %v, want %v", strays, wantStrays)
	}
	if len(files) != len(wantFiles) {
		t.Fatalf("%d files, want %d: %v", len(files), len(wantFiles), files)
	}
	for i, f := range files {
		w := wantFiles[i]
		if f.Path != w.Path || f.Info == nil {
			t.Fatalf("file %d: %+v, want %+v", i, f, w)
		}
		got := []any{f.Info.Name(), f.Info.Size(), f.Info.Mode(), f.Info.ModTime(), f.Info.IsDir()}
		want := []any{w.Info.Name(), w.Info.Size(), w.Info.Mode(), w.Info.ModTime(), w.Info.IsDir()}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, want %v", f.Path, got, want)
		}
		if !reflect.DeepEqual(f.Info.Sys(), w.Info.Sys()) {
			t.Errorf("%s: Sys %+v, want %+v", f.Path, f.Info.Sys(), w.Info.Sys())
		}
	}
}
