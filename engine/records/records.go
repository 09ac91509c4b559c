// Package records owns state.db, the workspace's records that are not
// caches: install history (with every install's topic bytes, for revert),
// the promotion ledger and rejections (ledger.go), sleep pass
// reports, events and the forget ledger. It holds the schema as numbered
// migrations and every query; the core, the services and the tests call
// it and write no SQL of their own against these tables.
package records

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver "sqlite"

	"scriptorium/workspace"
)

// migrations are state.db's numbered schema changes; index i is version i+1.
// Append only: a shipped migration is never edited.
var migrations = []string{
	`CREATE TABLE history (
		id        INTEGER PRIMARY KEY AUTOINCREMENT,
		revision  INTEGER NOT NULL UNIQUE,
		time      TEXT NOT NULL,
		actor     TEXT NOT NULL,
		kind      TEXT NOT NULL,
		changed   TEXT NOT NULL, -- JSON array of paths
		diffs     TEXT NOT NULL  -- JSON object path -> unified diff
	)`,
	ledgerSchema,
	`CREATE TABLE passes (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		time       TEXT NOT NULL,
		model      TEXT NOT NULL,
		revision   INTEGER NOT NULL DEFAULT 0,
		changed    TEXT NOT NULL, -- JSON array of {path, diff}
		tokens_in  INTEGER NOT NULL DEFAULT 0,
		tokens_out INTEGER NOT NULL DEFAULT 0,
		error      TEXT NOT NULL DEFAULT '',
		core_gap   TEXT NOT NULL DEFAULT '[]'
	)`,
	`CREATE TABLE events (
		id   INTEGER PRIMARY KEY AUTOINCREMENT,
		time TEXT NOT NULL,
		kind TEXT NOT NULL,
		data TEXT NOT NULL -- the event as JSON
	)`,
	// The topic files' bytes before and after each install, so any install
	// can be reverted; rows from before this migration have none.
	`ALTER TABLE history ADD COLUMN files TEXT NOT NULL DEFAULT '{}'`,
	`ALTER TABLE history ADD COLUMN reverts INTEGER NOT NULL DEFAULT 0`,
	// Pending sources the owner rejected (ledger.go).
	rejectionSchema,
	// The source-ids each install archived, newly cited, promoted or
	// otherwise concerned, for the audit; rows from before have none.
	`ALTER TABLE history ADD COLUMN sources TEXT NOT NULL DEFAULT '[]'`,
	// The forget ledger: what each forget removed, by hash, never by content.
	`CREATE TABLE forgets (
	id       INTEGER PRIMARY KEY AUTOINCREMENT,
	revision INTEGER NOT NULL UNIQUE,
	time     TEXT NOT NULL,
	actor    TEXT NOT NULL,
	selector TEXT NOT NULL,           -- JSON ForgetSelector
	records  TEXT NOT NULL,           -- JSON [{source_id, path, line, sha256}]
	blocks   TEXT NOT NULL,           -- JSON [block id]
	labels   TEXT NOT NULL,           -- JSON [footnote label]
	turns    INTEGER NOT NULL DEFAULT 0,
	cleaned  TEXT NOT NULL DEFAULT '[]', -- JSON [what else was scrubbed]
	done     INTEGER NOT NULL DEFAULT 0
)`,
	// The forget revision that removed a row's recorded bytes and diffs
	// because they held forgotten text; such a row cannot be reverted.
	`ALTER TABLE history ADD COLUMN scrubbed_by INTEGER NOT NULL DEFAULT 0`,
	// Post-commit finish steps a service owes (finish.go); the forgets an
	// earlier version left unfinished are carried over.
	// Post-commit finish steps a service owes (the core's finish.go); the
	// forgets an earlier version left unfinished are carried over with an
	// empty payload: the forget ledger has them.
	`CREATE TABLE finishes (
	revision INTEGER NOT NULL,
	service  TEXT NOT NULL,
	payload  TEXT NOT NULL DEFAULT '',
	done     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (revision, service)
)`,
	`INSERT INTO finishes (revision, service, payload) SELECT revision, 'forget', '' FROM forgets WHERE done = 0`,
}

// Schema returns the migrations, oldest first (for tests that build an
// old state.db).
func Schema() []string { return append([]string(nil), migrations...) }

// Store is an open state.db.
type Store struct{ db *sql.DB }

// Open opens (creating and migrating) the state.db of the workspace
// metadata directory dir (workspace.MetaDir).
func Open(dir string) (*Store, error) {
	db, err := openStateDB(dir)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// DB is the underlying handle, for the forget ledger's scrub until it
// moves its queries here.
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// openStateDB opens .scriptorium/state.db: WAL with synchronous=FULL because
// history and the ledger are records that must survive a crash. Several
// processes may open the same new or old state dir at once; migrate makes
// sure the migrations run exactly once between them.
func openStateDB(dir string) (*sql.DB, error) {
	path := filepath.Join(dir, workspace.StateDBName)
	// busy_timeout comes first so that every later pragma (switching a new
	// file to WAL takes an exclusive lock) waits for a concurrent opener
	// instead of failing with SQLITE_BUSY.
	dsn := "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)"
	// SQLite makes a new database 0644, and its -wal and -shm files with
	// the database's mode: created 0600 first, all three are private.
	if err := workspace.CreatePrivate(path); err != nil {
		return nil, fmt.Errorf("create state.db: %w", err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open state.db: %w", err)
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// migrate brings state.db to the newest schema version. All pending
// migrations run in one BEGIN IMMEDIATE transaction that reads the version
// again after taking the write lock: a concurrent opener that migrated first
// leaves nothing to do, and a failed migration leaves the old version whole.
func migrate(db *sql.DB) error {
	ctx := context.Background()
	// Fast path, without the write lock: an up-to-date database (every open
	// but the first) only reads.
	if v, err := schemaVersion(ctx, db); err == nil && v >= len(migrations) {
		return nil
	}
	// BEGIN IMMEDIATE takes the write lock before the version is read, so
	// two openers queue on the busy timeout instead of both seeing the old
	// version. database/sql's BeginTx would issue a deferred BEGIN, hence
	// the explicit statements on one pinned connection.
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return fmt.Errorf("migrate: take the write lock: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.Background(), `ROLLBACK`)
		}
	}()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var v int
	if err := conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// v >= len(migrations): a concurrent opener won (or a newer program
	// migrated further, which older programs have always tolerated).
	for i := v; i < len(migrations); i++ {
		if _, err := conn.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", i+1, err)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (?)`, i+1); err != nil {
			return fmt.Errorf("migrate to version %d: %w", i+1, err)
		}
	}
	// With nothing to do the commit just releases the lock.
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		return fmt.Errorf("migrate to version %d: commit: %w", len(migrations), err)
	}
	committed = true
	return nil
}

// schemaVersion reads the schema version without taking the write lock; a
// database without the schema_version table is version 0.
func schemaVersion(ctx context.Context, db *sql.DB) (int, error) {
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).Scan(&tables); err != nil {
		return 0, err
	}
	if tables == 0 {
		return 0, nil
	}
	var v int
	err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_version`).Scan(&v)
	return v, err
}

// CheckSchema reports whether db holds one schema_version row per
// migration, each once, and the history, passes and events tables: what
// concurrent openers must leave behind.
func CheckSchema(db *sql.DB) error {
	rows, err := db.Query(`SELECT version FROM schema_version ORDER BY version`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var got []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return err
		}
		got = append(got, v)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	ok := len(got) == len(migrations)
	for i, v := range got {
		ok = ok && v == i+1
	}
	if !ok {
		return fmt.Errorf("schema_version rows %v, want 1..%d once each", got, len(migrations))
	}
	for _, table := range []string{"history", "passes", "events"} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&n); err != nil || n != 1 {
			return fmt.Errorf("table %s: %d, %v", table, n, err)
		}
	}
	return nil
}

// History is what an install appends to the history table. It also
// travels inside the roll-forward journal so recovery can write it.
type History struct {
	Revision int64             `json:"revision"`
	Time     time.Time         `json:"time"`
	Actor    string            `json:"actor"`
	Kind     string            `json:"kind"`
	Changed  []string          `json:"changed"`
	Diffs    map[string]string `json:"diffs"`
	// Files holds every changed topic file's bytes before and after the
	// install (archives are append-only and never reverted).
	Files map[string]FileChange `json:"files,omitempty"`
	// Reverts is the revision a revert install undid.
	Reverts int64 `json:"reverts,omitempty"`
	// Sources are the source-ids the install concerns: the records it
	// archived or newly cited, the sources it promoted (see Change.Sources).
	Sources []string `json:"sources,omitempty"`
}

// FileChange is one topic file's bytes around an install; nil means the
// file did not exist (JSON null), so a created or deleted file reverts.
type FileChange struct {
	Before []byte `json:"before"`
	After  []byte `json:"after"`
}

// InsertHistory records an install; recording the same revision twice is
// a no-op so recovery may replay it. db is a Store's DB (the forget's
// pinned connection uses the same function).
func InsertHistory(ctx context.Context, db *sql.DB, h History) error {
	changed, _ := json.Marshal(NonNil(h.Changed))
	diffs, _ := json.Marshal(h.Diffs)
	files := []byte("{}")
	if len(h.Files) > 0 {
		files, _ = json.Marshal(h.Files)
	}
	sources, _ := json.Marshal(NonNil(h.Sources))
	_, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO history (revision, time, actor, kind, changed, diffs, files, reverts, sources)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, h.Revision, h.Time.UTC().Format(time.RFC3339), h.Actor, h.Kind, string(changed),
		string(diffs), string(files), h.Reverts, string(sources))
	if err != nil {
		return fmt.Errorf("record history: %w", err)
	}
	return nil
}

// NonNil is s, or an empty slice for nil (JSON [] rather than null).
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
