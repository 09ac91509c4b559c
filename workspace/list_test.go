package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestListFiles_Cases(t *testing.T) {
	w := mustOpen(t, nil)
	for _, p := range []string{
		"topics/core.md", "topics/people/dave.md", "topics/a-b.md", "topics/a/x.md",
		"topics/notes.txt", "topics/UPPER.MD", "topics/.hidden/h.md",
		"sources/openprogram/_v2/s.md", "sources/openprogram/legacy.md",
		".scriptorium/runtime/j.md",
	} {
		mustWrite(t, w.Path(p), "x")
	}
	if err := os.Symlink(w.Path("topics/core.md"), w.Path("topics/link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.Path("sources"), w.Path("topics/dirlink")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sub       string
		files     []string
		symlinks  []string
		wantErrIs error
	}{
		{sub: "topics",
			files:    []string{"topics/.hidden/h.md", "topics/a-b.md", "topics/a/x.md", "topics/core.md", "topics/people/dave.md"},
			symlinks: []string{"topics/dirlink", "topics/link.md"}},
		{sub: "topics/", files: []string{"topics/.hidden/h.md", "topics/a-b.md", "topics/a/x.md", "topics/core.md", "topics/people/dave.md"},
			symlinks: []string{"topics/dirlink", "topics/link.md"}},
		{sub: "topics/people", files: []string{"topics/people/dave.md"}},
		{sub: "sources", files: []string{"sources/openprogram/_v2/s.md", "sources/openprogram/legacy.md"}},
		{sub: "topics/missing"},
		{sub: ".scriptorium", wantErrIs: ErrInvalidPath},
		{sub: "", wantErrIs: ErrInvalidPath},
		{sub: ".", wantErrIs: ErrInvalidPath},
		{sub: "topics/../.scriptorium", wantErrIs: ErrInvalidPath},
		{sub: "/topics", wantErrIs: ErrInvalidPath},
		{sub: "topicsx", wantErrIs: ErrInvalidPath},
		{sub: `topics\people`, wantErrIs: ErrInvalidPath},
	}
	for _, tt := range tests {
		t.Run(tt.sub, func(t *testing.T) {
			files, links, err := ListFiles(w, tt.sub)
			if tt.wantErrIs != nil {
				if !errors.Is(err, tt.wantErrIs) {
					t.Fatalf("err = %v, want %v", err, tt.wantErrIs)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(files, tt.files) {
				t.Errorf("files = %q, want %q", files, tt.files)
			}
			if !reflect.DeepEqual(links, tt.symlinks) {
				t.Errorf("symlinks = %q, want %q", links, tt.symlinks)
			}
		})
	}
}

func TestListFiles_RootSymlinkReported(t *testing.T) {
	w := mustOpen(t, nil)
	if err := os.Remove(w.Path("topics")); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	mustWrite(t, filepath.Join(elsewhere, "x.md"), "x")
	if err := os.Symlink(elsewhere, w.Path("topics")); err != nil {
		t.Fatal(err)
	}
	files, links, err := ListFiles(w, "topics")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 0 || !reflect.DeepEqual(links, []string{"topics"}) {
		t.Errorf("files %q, symlinks %q; want none and [topics]", files, links)
	}
}
