package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestImport_Symlinks (issue 24 §12): an import through a symlinked
// folder reads what it holds; symlinked files and folders inside a walk
// are read and counted, once; a link cycle, a broken link and a link to
// what the walk reads already are skipped and said.
func TestImport_Symlinks(t *testing.T) {
	cc := fixture(t, "testdata", "claude-code", ccSession+".jsonl")
	elsewhere := t.TempDir()
	write(t, filepath.Join(elsewhere, "real", "a.jsonl"), cc)
	write(t, filepath.Join(elsewhere, "other", "b.jsonl"), []byte(line("s2", "1", "", "linked in")))
	write(t, filepath.Join(elsewhere, "c.jsonl"), []byte(line("s3", "1", "", "a linked file")))

	// The root itself is a link.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(elsewhere, "real"), link); err != nil {
		t.Fatal(err)
	}
	res, err := importDir(t, filepath.Join(t.TempDir(), "state"), link, Options{})
	if err != nil || res.Imported != 7 || len(res.Files) != 1 {
		t.Fatalf("through a symlinked root: %+v, %v", res, err)
	}

	// Links inside the walk: to a folder and a file elsewhere (read), back
	// to the root (a cycle), to nothing, and to a file read directly.
	root := filepath.Join(elsewhere, "real")
	for name, target := range map[string]string{
		"other":        filepath.Join(elsewhere, "other"),
		"c.jsonl":      filepath.Join(elsewhere, "c.jsonl"),
		"loop":         root,
		"broken.jsonl": filepath.Join(elsewhere, "missing"),
		"again.jsonl":  filepath.Join(root, "a.jsonl"),
	} {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	res, err = importDir(t, filepath.Join(t.TempDir(), "state"), link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported != 9 || len(res.Files) != 3 {
		t.Fatalf("imported %d turns from %+v, want 9 from a.jsonl, c.jsonl and other/b.jsonl", res.Imported, res.Files)
	}
	why := map[string]string{}
	for _, u := range res.Unrecognised {
		why[filepath.Base(u.Path)] = u.LooksLike
	}
	for name, want := range map[string]string{"loop": "a folder the walk reads already", "broken.jsonl": "leads nowhere",
		"again.jsonl": "a file the walk reads already (a.jsonl)"} {
		if !strings.Contains(why[name], want) {
			t.Errorf("%s: skipped as %q, want %q", name, why[name], want)
		}
	}
	if len(why) != 3 || res.Skipped[SkipNotTranscript] != 3 {
		t.Errorf("skipped %v (counted %d), want the 3 links", why, res.Skipped[SkipNotTranscript])
	}
}

// TestWatcher_SymlinkedFolder: a watched folder that is a symbolic link
// (~/.codex a link to a synced folder) is watched through it.
func TestWatcher_SymlinkedFolder(t *testing.T) {
	real := t.TempDir()
	write(t, filepath.Join(real, "p", "a.jsonl"), fixture(t, "testdata", "claude-code", ccSession+".jsonl"))
	link := filepath.Join(t.TempDir(), "watched")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	clock := time.Now().Add(time.Hour)
	w := &Watcher{StateDir: t.TempDir(), Paths: []string{link}, Now: func() time.Time { return clock }}
	res, err := w.Scan(t.Context())
	if err != nil || len(res) != 1 || res[0].Err != nil || res[0].Result.Imported != 7 {
		t.Fatalf("scan of a symlinked folder: %+v, %v", res, err)
	}
}
