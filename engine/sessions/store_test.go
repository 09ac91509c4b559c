package sessions

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestOpen_Pragmas(t *testing.T) {
	s := mustOpen(t)
	for _, tc := range []struct{ pragma, want string }{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL
		{"busy_timeout", "5000"},
		{"foreign_keys", "1"},
	} {
		var got string
		if err := s.db.QueryRow("PRAGMA " + tc.pragma).Scan(&got); err != nil {
			t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
		}
		if got != tc.want {
			t.Errorf("PRAGMA %s = %q, want %q", tc.pragma, got, tc.want)
		}
	}
	var version int
	if err := s.db.QueryRow(`SELECT max(version) FROM schema_migrations`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version != len(migrations) {
		t.Errorf("schema version %d, want %d", version, len(migrations))
	}
}

func TestOpen_PrivateFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	s := mustOpen(t)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o600 {
		t.Errorf("mode %o, want 600", perm)
	}
}

func TestOpen_ReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir?with#odd%chars", "sessions.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	mustImport(t, s, jsonl(chain("", "a", "b")...))
	s.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the escaped path: %v", err)
	}

	s, err = Open(path, nil)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s.Close()
	var migrationsApplied int
	if err := s.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&migrationsApplied); err != nil {
		t.Fatal(err)
	}
	if migrationsApplied != len(migrations) {
		t.Errorf("%d migration rows after reopen, want %d", migrationsApplied, len(migrations))
	}
	if _, err := s.Node(k("b")); err != nil {
		t.Errorf("node lost across reopen: %v", err)
	}
}

func TestOpen_SchemaTooNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`INSERT INTO schema_migrations(version, applied_at) VALUES (999, 'x')`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path, nil); !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("Open = %v, want ErrSchemaTooNew", err)
	}
}

func TestOpen_MissingDirectory(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "absent", "sessions.db"), nil); err == nil {
		t.Fatal("Open in a missing directory succeeded")
	}
}

// Two stores on one file behave like two processes: their write
// transactions queue on the busy timeout instead of failing.
func TestImport_ConcurrentStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.db")
	stores := make([]*Store, 2)
	for i := range stores {
		s, err := Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores[i] = s
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := string(rune('a' + i))
			file := jsonl(turn{Session: "s" + id, ID: id, Role: "user", Content: strings.Repeat(id, 100)})
			_, errs[i] = stores[i%2].Import(strings.NewReader(file))
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("import %d: %v", i, err)
		}
	}
	all, err := stores[0].Sessions()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(errs) {
		t.Errorf("%d sessions stored, want %d", len(all), len(errs))
	}
}
