package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

func TestOpen_SweepRemovesOnlyTempFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	rt := filepath.Join(dir, ".scriptorium", "runtime")
	own := ".tmp-" + strconv.Itoa(os.Getpid()) + "-live"
	files := map[string]bool{ // name → survives the sweep
		".tmp-2147483000-123":  false, // dead writer
		".tmp-garbage":         false, // no readable pid
		own:                    true,  // a live writer's file
		"journal-000042.json":  true,  // the engine's business
		"writer-status.json":   true,
		"tmp-not-ours":         true,
		"x.tmp-2147483000-1":   true,
		"stage-41/.tmp-1-file": true, // only the top level is swept
	}
	for name := range files {
		mustWrite(t, filepath.Join(rt, name), "data")
	}
	if err := os.Mkdir(filepath.Join(rt, ".tmp-2147483000-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	files[".tmp-2147483000-dir"] = true // a directory is not a temp file
	mustWrite(t, filepath.Join(dir, "topics", ".tmp-2147483000-x"), "outside runtime")

	mustOpenAt(t, dir, nil)
	for name, survives := range files {
		_, err := os.Lstat(filepath.Join(rt, name))
		if survives && err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
		if !survives && !os.IsNotExist(err) {
			t.Errorf("%s survived the sweep (err %v)", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "topics", ".tmp-2147483000-x")); err != nil {
		t.Errorf("file outside runtime/ swept: %v", err)
	}
}

func TestTempOwner_Cases(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		ok   bool
	}{
		{".tmp-42-abc", 42, true},
		{".tmp-42-", 42, true},
		{".tmp-42", 0, false},
		{".tmp--1-x", 0, false},
		{".tmp-0-x", 0, false},
		{".tmp-x-1", 0, false},
	}
	for _, tt := range tests {
		pid, ok := tempOwner(tt.name)
		if pid != tt.pid || ok != tt.ok {
			t.Errorf("tempOwner(%q) = %d, %v; want %d, %v", tt.name, pid, ok, tt.pid, tt.ok)
		}
	}
}

// oldWorkspace builds a memory dir with the whole old layout.
func oldWorkspace(t *testing.T) (state, mem string) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	mem = filepath.Join(state, "memory")
	mustWrite(t, filepath.Join(mem, "journal", "2024-01-01.md"), "journal entry\n")
	mustWrite(t, filepath.Join(mem, "wiki", "people", "dave.md"), "# Dave\r\n")
	mustWrite(t, filepath.Join(mem, ".state", "runtime.json"), `{"cursor":3}`)
	mustWrite(t, filepath.Join(mem, "index.sqlite"), "SQLite format 3\x00")
	mustWrite(t, filepath.Join(mem, "index.sqlite-wal"), "wal")
	mustWrite(t, filepath.Join(mem, "core.md"), "old core\n")
	mustWrite(t, filepath.Join(mem, "sources", "openprogram", "s.md"), "legacy\n")
	return state, mem
}

func TestOpen_MigratesOldLayout(t *testing.T) {
	state, mem := oldWorkspace(t)
	before := tree(t, mem)

	w := mustOpenAt(t, mem, nil)
	sup := SupersededDir(state)
	want := map[string]string{
		"journal":               "<dir>",
		"journal/2024-01-01.md": "journal entry\n",
		"wiki":                  "<dir>",
		"wiki/people":           "<dir>",
		"wiki/people/dave.md":   "# Dave\r\n",
		".state":                "<dir>",
		".state/runtime.json":   `{"cursor":3}`,
		"index.sqlite":          "SQLite format 3\x00",
		"index.sqlite-wal":      "wal",
	}
	if got := tree(t, sup); !reflect.DeepEqual(got, want) {
		t.Errorf("memory-superseded = %v\nwant %v", got, want)
	}
	after := tree(t, mem)
	for _, gone := range []string{"journal", "wiki", ".state", "index.sqlite", "index.sqlite-wal"} {
		if _, ok := after[gone]; ok {
			t.Errorf("%s still in the workspace", gone)
		}
	}
	// Everything else is where it was.
	for p, content := range before {
		if top := firstSegment(p); top == "journal" || top == "wiki" || top == ".state" || top == "index.sqlite" || top == "index.sqlite-wal" {
			continue
		}
		if after[p] != content {
			t.Errorf("%s changed: %q → %q", p, content, after[p])
		}
	}
	wantMoves := []Move{
		{filepath.Join(mem, "journal"), filepath.Join(sup, "journal")},
		{filepath.Join(mem, "wiki"), filepath.Join(sup, "wiki")},
		{filepath.Join(mem, ".state"), filepath.Join(sup, ".state")},
		{filepath.Join(mem, "index.sqlite"), filepath.Join(sup, "index.sqlite")},
		{filepath.Join(mem, "index.sqlite-wal"), filepath.Join(sup, "index.sqlite-wal")},
	}
	if got := w.Migrated(); !reflect.DeepEqual(got, wantMoves) {
		t.Errorf("Migrated() = %v\nwant %v", got, wantMoves)
	}

	// Idempotent: a second open moves nothing and changes nothing.
	supBefore, memBefore := tree(t, sup), tree(t, mem)
	w2 := mustOpenAt(t, mem, nil)
	if len(w2.Migrated()) != 0 {
		t.Errorf("second open migrated %v", w2.Migrated())
	}
	if !reflect.DeepEqual(tree(t, sup), supBefore) || !reflect.DeepEqual(tree(t, mem), memBefore) {
		t.Error("second open changed the trees")
	}
}

func firstSegment(p string) string {
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			return p[:i]
		}
	}
	return p
}

func TestOpen_MigrationNeverClobbers(t *testing.T) {
	state, mem := oldWorkspace(t)
	sup := SupersededDir(state)
	mustWrite(t, filepath.Join(sup, "journal", "keep.md"), "earlier journal\n")
	mustWrite(t, filepath.Join(sup, "journal.1"), "a file named journal.1\n")
	mustWrite(t, filepath.Join(sup, "index.sqlite-wal"), "earlier wal")

	mustOpenAt(t, mem, nil)
	got := tree(t, sup)
	checks := map[string]string{
		"journal/keep.md":         "earlier journal\n",
		"journal.1":               "a file named journal.1\n",
		"journal.2/2024-01-01.md": "journal entry\n",
		"wiki/people/dave.md":     "# Dave\r\n",
		"index.sqlite-wal":        "earlier wal",
		// The database and its WAL move together under one free name.
		"index.sqlite.1":     "SQLite format 3\x00",
		"index.sqlite.1-wal": "wal",
	}
	for p, want := range checks {
		if got[p] != want {
			t.Errorf("%s = %q, want %q", p, got[p], want)
		}
	}
}

func TestOpen_MigrationRenameFailureDeletesNothing(t *testing.T) {
	_, mem := oldWorkspace(t)
	before := tree(t, mem)
	fail := map[string]bool{}
	ops := faultOps{fail: fail}
	fail["rename"] = true
	// Open renames its own state files into place when missing, so they
	// exist already and only the migration's renames fail.
	mustWrite(t, filepath.Join(mem, ".scriptorium", "workspace-id"), "0123456789abcdef0123456789abcdef\n")
	mustWrite(t, filepath.Join(mem, ".scriptorium", "revision"), "0\n")
	_, err := Open(mem, &Options{ops: ops})
	if !errors.Is(err, errInjected) {
		t.Fatalf("Open = %v, want the injected failure", err)
	}
	after := tree(t, mem)
	for p, content := range before {
		if after[p] != content {
			t.Errorf("%s changed after failed migration: %q → %q", p, content, after[p])
		}
	}
}

func TestOpen_MigrationOnlyTouchesOldNames(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	mem := filepath.Join(state, "memory")
	mustWrite(t, filepath.Join(mem, "journals", "x"), "similar name")
	mustWrite(t, filepath.Join(mem, "topics", "journal", "x.md"), "nested")
	mustOpenAt(t, mem, nil)
	if _, err := os.Stat(SupersededDir(state)); !os.IsNotExist(err) {
		t.Errorf("memory-superseded created with nothing to move: %v", err)
	}
	for _, p := range []string{"journals/x", "topics/journal/x.md"} {
		if _, err := os.Stat(filepath.Join(mem, p)); err != nil {
			t.Errorf("%s moved: %v", p, err)
		}
	}
}
