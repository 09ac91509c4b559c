package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gofrs/flock"
)

func TestOpen_CreatesTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "memory")
	w := mustOpenAt(t, dir, nil)
	if w.Root() != dir {
		t.Errorf("Root() = %q, want %q", w.Root(), dir)
	}
	for _, d := range []string{"topics", "sources", ".scriptorium", ".scriptorium/runtime"} {
		fi, err := os.Stat(filepath.Join(dir, d))
		if err != nil || !fi.IsDir() {
			t.Errorf("%s missing: %v", d, err)
			continue
		}
		if fi.Mode().Perm() != 0o700&^umask(t) { // a memory is private (issue 24)
			t.Errorf("%s mode = %v", d, fi.Mode().Perm())
		}
	}
	id := mustRead(t, filepath.Join(dir, ".scriptorium", "workspace-id"))
	if !regexp.MustCompile(`^[0-9a-f]{32}\n$`).MatchString(id) {
		t.Errorf("workspace-id = %q, want 32 hex digits and LF", id)
	}
	if w.ID() != strings.TrimSuffix(id, "\n") {
		t.Errorf("ID() = %q, file holds %q", w.ID(), id)
	}
	if got := mustRead(t, filepath.Join(dir, ".scriptorium", "revision")); got != "0\n" {
		t.Errorf("revision file = %q, want %q", got, "0\n")
	}
	if rt := w.RuntimeDir(); rt != filepath.Join(dir, ".scriptorium", "runtime") {
		t.Errorf("RuntimeDir() = %q", rt)
	}
	if p := w.Path("topics/people/dave.md"); p != filepath.Join(dir, "topics", "people", "dave.md") {
		t.Errorf("Path() = %q", p)
	}
	if _, err := os.Stat(filepath.Join(dir, ".scriptorium", "write.lock")); err != nil {
		t.Errorf("write.lock missing: %v", err)
	}
	if _, ok := w.LockHolder(); ok {
		t.Error("LockHolder reports a holder after Open released the lock")
	}
	if len(w.Migrated()) != 0 {
		t.Errorf("fresh workspace migrated %v", w.Migrated())
	}
}

// umask returns the process umask without changing it for long.
func umask(t *testing.T) os.FileMode {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "probe")
	if err := os.Mkdir(p, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

func TestOpen_IDStableAcrossOpens(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	a := mustOpenAt(t, dir, nil)
	b := mustOpenAt(t, dir, nil)
	if a.ID() != b.ID() {
		t.Errorf("id changed between opens: %q then %q", a.ID(), b.ID())
	}
	c := mustOpen(t, nil)
	if c.ID() == a.ID() {
		t.Errorf("two workspaces share id %q", a.ID())
	}
}

func TestRevision_SetAndRead(t *testing.T) {
	w := mustOpen(t, nil)
	for _, n := range []int64{0, 1, 41, 1 << 40} {
		if err := w.SetRevision(n); err != nil {
			t.Fatal(err)
		}
		got, err := w.Revision()
		if err != nil {
			t.Fatal(err)
		}
		if got != n {
			t.Errorf("Revision() = %d, want %d", got, n)
		}
		if f := mustRead(t, filepath.Join(w.Root(), ".scriptorium", "revision")); f != strconv.FormatInt(n, 10)+"\n" {
			t.Errorf("revision file = %q", f)
		}
	}
	if err := w.SetRevision(-1); !errors.Is(err, ErrInvalidRevision) {
		t.Errorf("SetRevision(-1) = %v, want ErrInvalidRevision", err)
	}
	// The revision survives reopening.
	w2 := mustOpenAt(t, w.Root(), nil)
	if got, _ := w2.Revision(); got != 1<<40 {
		t.Errorf("after reopen Revision() = %d", got)
	}
}

func TestSetRevision_FailingFsyncKeepsOld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	fail := map[string]bool{}
	w := mustOpenAt(t, dir, &Options{ops: faultOps{fail: fail}})
	if err := w.SetRevision(7); err != nil {
		t.Fatal(err)
	}
	fail["sync"] = true
	if err := w.SetRevision(8); !errors.Is(err, errInjected) {
		t.Fatalf("SetRevision with failing fsync = %v, want the injected failure", err)
	}
	if got, err := w.Revision(); err != nil || got != 7 {
		t.Errorf("Revision() = %d, %v; want the old 7", got, err)
	}
}

func TestOpen_CorruptState(t *testing.T) {
	tests := []struct {
		name, file, content string
	}{
		{"revision text", "revision", "forty-one\n"},
		{"revision negative", "revision", "-3\n"},
		{"revision empty", "revision", ""},
		{"revision crlf", "revision", "4\r\n"},
		{"revision overflow", "revision", "99999999999999999999\n"},
		{"id short", "workspace-id", "abc\n"},
		{"id upper", "workspace-id", strings.Repeat("A", 32) + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "memory")
			mustWrite(t, filepath.Join(dir, ".scriptorium", tt.file), tt.content)
			_, err := Open(dir, nil)
			if !errors.Is(err, ErrCorruptState) {
				t.Fatalf("Open = %v, want ErrCorruptState", err)
			}
			// Nothing rewrote the bad file.
			if got := mustRead(t, filepath.Join(dir, ".scriptorium", tt.file)); got != tt.content {
				t.Errorf("%s rewritten to %q", tt.file, got)
			}
		})
	}
}

func TestOpen_AcceptsHandWrittenState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	id := strings.Repeat("0f", 16)
	mustWrite(t, filepath.Join(dir, ".scriptorium", "workspace-id"), id)
	mustWrite(t, filepath.Join(dir, ".scriptorium", "revision"), "12")
	w := mustOpenAt(t, dir, nil)
	if w.ID() != id {
		t.Errorf("ID() = %q, want %q", w.ID(), id)
	}
	if n, err := w.Revision(); err != nil || n != 12 {
		t.Errorf("Revision() = %d, %v", n, err)
	}
}

func TestOpen_RootIsFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "memory")
	mustWrite(t, p, "not a dir")
	if _, err := Open(p, nil); err == nil {
		t.Fatal("Open on a regular file succeeded")
	}
}

func TestOpen_FailingFsyncFailsOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	_, err := Open(dir, &Options{ops: faultOps{fail: map[string]bool{"syncdir": true}}})
	if !errors.Is(err, errInjected) {
		t.Fatalf("Open = %v, want the injected failure", err)
	}
}

func TestOpen_RecoverRunsUnderLockBeforeSweep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	mustOpenAt(t, dir, nil)
	orphan := filepath.Join(dir, ".scriptorium", "runtime", ".tmp-2147483000-1")
	mustWrite(t, orphan, "partial")
	called := 0
	w := mustOpenAt(t, dir, &Options{Holder: "test", Recover: func(w *Workspace) error {
		called++
		if _, err := os.Stat(orphan); err != nil {
			t.Errorf("orphan swept before Recover: %v", err)
		}
		other := flock.New(filepath.Join(w.Root(), ".scriptorium", "write.lock"))
		ok, err := other.TryLock()
		if err != nil {
			t.Errorf("TryLock: %v", err)
		}
		if ok {
			_ = other.Unlock()
			t.Error("write lock not held during Recover")
		}
		if h, ok := w.LockHolder(); !ok || !strings.Contains(h, "test") {
			t.Errorf("LockHolder() during Recover = %q, %v", h, ok)
		}
		return nil
	}})
	if called != 1 {
		t.Errorf("Recover called %d times, want 1", called)
	}
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Errorf("orphan not swept after Recover: %v", err)
	}
	_ = w
}

func TestOpen_RecoverErrorFailsAndReleases(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "memory")
	boom := errors.New("journal unreadable")
	_, err := Open(dir, &Options{Recover: func(*Workspace) error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("Open = %v, want the Recover error", err)
	}
	// The lock was released: a background acquisition succeeds at once.
	w := mustOpenAt(t, dir, nil)
	release, err := w.Lock(t.Context(), LockBackground)
	if err != nil {
		t.Fatalf("lock after failed Open: %v", err)
	}
	release()
}

func TestWriteFile_UnderRoot(t *testing.T) {
	w := mustOpen(t, nil)
	if err := w.WriteFile("topics/people/dave.md", []byte("# Dave\r\n")); err != nil {
		t.Fatal(err)
	}
	if got := mustRead(t, filepath.Join(w.Root(), "topics", "people", "dave.md")); got != "# Dave\r\n" {
		t.Errorf("content = %q", got)
	}
	if left := names(t, w.RuntimeDir()); len(left) != 0 {
		t.Errorf("runtime dir not empty: %v", left)
	}
}
