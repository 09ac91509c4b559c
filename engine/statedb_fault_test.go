package engine

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/records"
	"scriptorium/errcode"
	"scriptorium/workspace/faultfs"
)

// oldStateDB writes a version-1 state.db (the history table only, with one
// row) into <state>/memory/.scriptorium and returns that directory. extra
// SQL runs after, to plant an obstacle for a later migration.
func oldStateDB(t *testing.T, state string, extra ...string) string {
	t.Helper()
	meta := filepath.Join(state, "memory", ".scriptorium")
	if err := os.MkdirAll(meta, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(meta, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := append([]string{`CREATE TABLE schema_version (version INTEGER NOT NULL)`, records.Schema()[0],
		`INSERT INTO schema_version (version) VALUES (1)`,
		`INSERT INTO history (revision, time, actor, kind, changed, diffs) VALUES (1, '2026-01-01T00:00:00Z', 'owner', 'update', '[]', '{}')`},
		extra...)
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return meta
}

// schemaOf lists state.db's schema objects and its version rows, read
// without migrating.
func schemaOf(t *testing.T, meta string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(meta, "state.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	rows, err := db.Query(`SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	rows.Close()
	vrows, err := db.Query(`SELECT version FROM schema_version ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	for vrows.Next() {
		var v string
		_ = vrows.Scan(&v)
		out = append(out, "version "+v)
	}
	vrows.Close()
	return strings.Join(out, "\n")
}

// A migration of state.db that fails part-way (here: migration 3 meets a
// table of the same name) rolls back whole: the file keeps version 1 and
// none of migration 2's tables, Open fails with an IO error that names
// state.db and the version, and once the obstacle is gone the next open
// migrates to the end with the history row kept.
func TestStateDB_FailedMigrationLeavesOldSchema(t *testing.T) {
	state := t.TempDir()
	meta := oldStateDB(t, state, `CREATE TABLE passes (x INTEGER)`)
	before := schemaOf(t, meta)
	_, err := Open(context.Background(), Options{StateDir: state})
	t.Logf("failed migration: %v", err)
	var ee *errcode.Error
	if !errors.As(err, &ee) || ee.Code != errcode.IO || !strings.Contains(err.Error(), filepath.Join(meta, "state.db")) || !strings.Contains(err.Error(), "migrate to version 3") {
		t.Fatalf("open over a migration that fails: %v", err)
	}
	if after := schemaOf(t, meta); after != before {
		t.Fatalf("a failed migration changed the schema:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(meta, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DROP TABLE passes`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatalf("open once the obstacle is gone: %v", err)
	}
	defer e.Close()
	if err := records.CheckSchema(e.rec.DB()); err != nil {
		t.Fatalf("%s: %v", "after the repaired migration", err)
	}
	hist, err := e.rec.Histories(context.Background())
	if err != nil || len(hist) != 1 || hist[0].Revision != 1 {
		t.Fatalf("history after the migration: %+v %v", hist, err)
	}
}

// A state.db that cannot be written (EACCES by file modes, or EPERM by the
// immutable flag when the test runs as root) fails Open with an IO error
// naming state.db, and leaves the old schema as it was; made writable
// again, it migrates.
func TestStateDB_ReadOnlyIsClearErrorAndNoHalfMigration(t *testing.T) {
	state := t.TempDir()
	meta := oldStateDB(t, state)
	before := schemaOf(t, meta)
	undo, how, err := faultfs.MakeReadOnly(filepath.Join(meta, "state.db"), meta)
	if errors.Is(err, faultfs.ErrNoReadOnly) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = undo() })
	_, err = Open(context.Background(), Options{StateDir: state})
	t.Logf("read-only (%s): %v", how, err)
	if uerr := undo(); uerr != nil {
		t.Fatal(uerr)
	}
	var ee *errcode.Error
	if !errors.As(err, &ee) || ee.Code != errcode.IO || !strings.Contains(err.Error(), filepath.Join(meta, "state.db")) {
		t.Fatalf("open of a read-only old state.db (%s): %v", how, err)
	}
	if strings.Count(err.Error(), "state.db") > 2 {
		t.Errorf("the error repeats itself: %v", err)
	}
	if after := schemaOf(t, meta); after != before {
		t.Fatalf("a refused migration changed the schema (%s):\nbefore:\n%s\nafter:\n%s", how, before, after)
	}
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatalf("open once writable again: %v", err)
	}
	defer e.Close()
	if err := records.CheckSchema(e.rec.DB()); err != nil {
		t.Fatalf("%s: %v", "after the read-only spell", err)
	}
}

// A directory where state.db should be is an IO error that names it.
func TestStateDB_DirectoryInTheWay(t *testing.T) {
	state := t.TempDir()
	meta := filepath.Join(state, "memory", ".scriptorium")
	if err := os.MkdirAll(filepath.Join(meta, "state.db"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), Options{StateDir: state})
	t.Logf("directory: %v", err)
	var ee *errcode.Error
	if !errors.As(err, &ee) || ee.Code != errcode.IO || !strings.Contains(err.Error(), filepath.Join(meta, "state.db")) {
		t.Fatalf("open with a directory for state.db: %v", err)
	}
}
