package records

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// Processes that open a new state dir at the same moment (six `status`
// calls from a shell loop, a daemon and a CLI) must all succeed, and the
// migrations must run exactly once. Every goroutine opens its own *sql.DB,
// which has its own connections and so races like a separate process.
func TestStateDB_ConcurrentOpenMigratesOnce(t *testing.T) {
	const (
		rounds  = 40
		openers = 8
	)
	for round := range rounds {
		dir := t.TempDir()
		start := make(chan struct{})
		dbs := make([]*sql.DB, openers)
		errs := make([]error, openers)
		var wg sync.WaitGroup
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				dbs[i], errs[i] = openStateDB(dir)
			}()
		}
		runtime.Gosched()
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: opener %d: %v", round, i, err)
			}
		}
		checkStateSchema(t, dbs[0], fmt.Sprintf("round %d", round))
		for _, db := range dbs {
			db.Close()
		}
	}
}

// An existing, older state.db is brought up to date once, whoever wins.
func TestStateDB_ConcurrentMigrateFromOldVersion(t *testing.T) {
	for round := range 10 {
		dir := t.TempDir()
		// Build a version-1 database by hand: the history table only.
		old, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "state.db")+"?_pragma=journal_mode(WAL)")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(`CREATE TABLE schema_version (version INTEGER NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(migrations[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(`INSERT INTO schema_version (version) VALUES (1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(`INSERT INTO history (revision, time, actor, kind, changed, diffs) VALUES (7, 't', 'owner', 'edit', '[]', '{}')`); err != nil {
			t.Fatal(err)
		}
		old.Close()

		var wg sync.WaitGroup
		errs := make([]error, 6)
		dbs := make([]*sql.DB, len(errs))
		start := make(chan struct{})
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				dbs[i], errs[i] = openStateDB(dir)
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: opener %d: %v", round, i, err)
			}
		}
		checkStateSchema(t, dbs[0], fmt.Sprintf("round %d", round))
		var rev int64
		if err := dbs[0].QueryRow(`SELECT revision FROM history`).Scan(&rev); err != nil || rev != 7 {
			t.Fatalf("round %d: history row lost: %d, %v", round, rev, err)
		}
		for _, db := range dbs {
			db.Close()
		}
	}
}

// A reopen of an up-to-date database changes nothing.
func TestStateDB_ReopenIsNoOp(t *testing.T) {
	dir := t.TempDir()
	db, err := openStateDB(dir)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = openStateDB(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkStateSchema(t, db, "reopen")
}

// checkStateSchema fails the test unless CheckSchema passes.
func checkStateSchema(t *testing.T, db *sql.DB, what string) {
	t.Helper()
	if err := CheckSchema(db); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
