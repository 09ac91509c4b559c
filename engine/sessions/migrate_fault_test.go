package sessions

import (
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace/faultfs"
)

// A version-1 sessions.db that cannot be written (EACCES by file modes, or
// EPERM by the immutable flag when the test runs as root) fails Open with
// an error that names the file, and is left exactly as it was: no
// half-migrated schema. Made writable again, it migrates.
func TestMigrate_ReadOnlyIsClearErrorAndNoHalfMigration(t *testing.T) {
	path := copyFixture(t)
	dump := func() []string {
		db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return dumpDB(t, db)
	}
	want := dump()
	undo, how, err := faultfs.MakeReadOnly(path, filepath.Dir(path))
	if errors.Is(err, faultfs.ErrNoReadOnly) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = undo() })
	s, err := Open(path, &Options{BusyTimeout: 200 * time.Millisecond})
	if uerr := undo(); uerr != nil {
		t.Fatal(uerr)
	}
	if err == nil {
		s.Close()
		t.Fatalf("Open of a read-only old sessions.db (%s) succeeded", how)
	}
	t.Logf("read-only (%s): %v", how, err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the error does not name %s: %v", path, err)
	}
	if got := dump(); !reflect.DeepEqual(got, want) {
		t.Errorf("a refused migration changed the file (%s)", how)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatalf("open once writable again: %v", err)
	}
	defer s.Close()
	checkMigratedFixture(t, s)
}
