//go:build unix

package mirror

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func read(t *testing.T, root, p string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

func TestSync(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	fixed := []string{"core.md", "relations.json"}
	var m Mirror
	files := map[string][]byte{"core.md": []byte("core\n"), "relations.json": []byte("{}\n"),
		"timeline/2026/08/10.md": []byte("day\n"), "timeline/2026/09/01.md": []byte("later\n")}
	if err := m.Sync(root, tmp, fixed, "timeline", files); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "timeline/2026/08/10.md"); got != "day\n" {
		t.Fatalf("day %q", got)
	}
	// A hand edit does not last: the next sync reads, compares and rewrites it.
	if err := os.WriteFile(filepath.Join(root, "core.md"), []byte("hand edit, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A day no longer in files goes, with the directories it leaves empty;
	// a file outside the owned ones stays.
	if err := os.WriteFile(filepath.Join(root, "notes.md"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(files, "timeline/2026/09/01.md")
	if err := m.Sync(root, tmp, fixed, "timeline", files); err != nil {
		t.Fatal(err)
	}
	if got := read(t, root, "core.md"); got != "core\n" {
		t.Errorf("core.md after a hand edit: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "timeline", "2026", "09")); !os.IsNotExist(err) {
		t.Errorf("the emptied month is still there: %v", err)
	}
	if read(t, root, "timeline/2026/08/10.md") != "day\n" || read(t, root, "notes.md") != "mine\n" {
		t.Error("a kept day or a file the mirror does not own changed")
	}
	// An unchanged file whose version is the one last written is not
	// even read: made unreadable behind the mirror's back, it stays the
	// same file (a rewrite is an atomic rename: a new inode), while a
	// mirror that remembers nothing must read it and so rewrites it.
	p := filepath.Join(root, "relations.json")
	ino := func() uint64 {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	before := ino()
	if err := m.Sync(root, tmp, fixed, "timeline", files); err != nil || ino() != before {
		t.Fatalf("an unchanged file was rewritten (%v)", err)
	}
	if os.Getuid() == 0 {
		return // root reads it anyway
	}
	var fresh Mirror
	if err := fresh.Sync(root, tmp, fixed, "timeline", files); err != nil || ino() == before {
		t.Fatalf("a fresh mirror left a file it could not read (%v)", err)
	}
	if read(t, root, "relations.json") != "{}\n" {
		t.Error("relations.json lost its bytes")
	}
}

// A file the mirror wrote, unchanged on disk since, is rewritten without
// being read back when its bytes change: the mirror knows what it holds.
func TestSync_ChangedKnownFileNotRead(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	reads := 0
	readFile = func(p string) ([]byte, error) { reads++; return os.ReadFile(p) }
	defer func() { readFile = os.ReadFile }()
	var m Mirror
	files := map[string][]byte{"recent_events.jsonl": []byte("a\n")}
	if err := m.Sync(root, tmp, []string{"recent_events.jsonl"}, "timeline", files); err != nil {
		t.Fatal(err)
	}
	files["recent_events.jsonl"] = []byte("b\na\n")
	if err := m.Sync(root, tmp, []string{"recent_events.jsonl"}, "timeline", files); err != nil {
		t.Fatal(err)
	}
	if reads != 0 || read(t, root, "recent_events.jsonl") != "b\na\n" {
		t.Fatalf("%d reads, file %q", reads, read(t, root, "recent_events.jsonl"))
	}
	// Edited behind its back, the file is read and compared again (an
	// edit to the same size: one of another size cannot hold the bytes).
	if err := os.WriteFile(filepath.Join(root, "recent_events.jsonl"), []byte("b\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Sync(root, tmp, []string{"recent_events.jsonl"}, "timeline", files); err != nil {
		t.Fatal(err)
	}
	if reads != 1 || read(t, root, "recent_events.jsonl") != "b\na\n" {
		t.Fatalf("after a hand edit: %d reads, file %q", reads, read(t, root, "recent_events.jsonl"))
	}
}

// A mirror that remembers nothing (a fresh process's) reads a file only
// when its size is that of the bytes it must hold: one of another size is
// rewritten unread, one of the same size is read and kept when equal.
func TestSync_FreshMirrorReadsOnlySameSize(t *testing.T) {
	root, tmp := t.TempDir(), t.TempDir()
	var read1 []string
	readFile = func(p string) ([]byte, error) { read1 = append(read1, filepath.Base(p)); return os.ReadFile(p) }
	defer func() { readFile = os.ReadFile }()
	fixed := []string{"core.md", "relations.json"}
	files := map[string][]byte{"core.md": []byte("core\n"), "relations.json": []byte("{}\n")}
	var m Mirror
	if err := m.Sync(root, tmp, fixed, "timeline", files); err != nil {
		t.Fatal(err)
	}
	read1 = nil
	ino := func(p string) uint64 {
		fi, err := os.Lstat(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	coreIno := ino("core.md")
	files["relations.json"] = []byte("{\"a\": 1}\n")
	var fresh Mirror
	if err := fresh.Sync(root, tmp, fixed, "timeline", files); err != nil {
		t.Fatal(err)
	}
	if len(read1) != 1 || read1[0] != "core.md" {
		t.Errorf("a fresh mirror read %v, want only core.md (relations.json's size differs)", read1)
	}
	if ino("core.md") != coreIno || read(t, root, "relations.json") != "{\"a\": 1}\n" {
		t.Errorf("core.md rewritten or relations.json not: %q", read(t, root, "relations.json"))
	}
	// A same-size file with other bytes is read, found different, rewritten.
	if err := os.WriteFile(filepath.Join(root, "core.md"), []byte("CORE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var fresh2 Mirror
	if err := fresh2.Sync(root, tmp, fixed, "timeline", files); err != nil || read(t, root, "core.md") != "core\n" {
		t.Fatalf("core.md %q (%v)", read(t, root, "core.md"), err)
	}
}
