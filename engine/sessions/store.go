package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// Options tunes Open. A nil *Options means all defaults.
type Options struct {
	// BusyTimeout is how long a statement waits for another connection or
	// process holding the write lock before failing with SQLITE_BUSY.
	// Zero means 5 seconds.
	BusyTimeout time.Duration
	// Unpublished says that no other process opens the file until this
	// Store has closed it, and that it is thrown away unless Close
	// succeeds: an import's staging file. Its transactions then use an
	// in-memory rollback journal instead of the write-ahead log, so a bulk
	// insert writes each page once, into the file, instead of into the log
	// and again at the checkpoint; a crash may leave such a file damaged,
	// which is why nobody else may use it. Close switches it to the
	// write-ahead log, as every other sessions.db is, before it is shared.
	Unpublished bool
}

const defaultBusyTimeout = 5 * time.Second

// Store is an open sessions.db. Its methods are safe for concurrent use.
type Store struct {
	db          *sql.DB
	path        string
	unpublished bool
}

// Open opens (creating if needed) the conversation store at path and brings
// its schema up to date. The parent directory must exist. A new file is
// created with mode 0600: it holds private conversations. Several processes
// may open the same new or old file at once: the migrations run once, in
// one transaction, in whichever gets the write lock first. Errors name the
// file but not the operation; callers say "open sessions.db".
func Open(path string, opts *Options) (*Store, error) {
	busy := defaultBusyTimeout
	if opts != nil && opts.BusyTimeout > 0 {
		busy = opts.BusyTimeout
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := createPrivate(abs); err != nil {
		return nil, err // an *fs.PathError, which names the file
	}
	unpublished := opts != nil && opts.Unpublished
	db, err := sql.Open("sqlite", dsn(abs, busy, unpublished))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	s := &Store{db: db, path: abs, unpublished: unpublished}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", abs, err)
	}
	return s, nil
}

// Close releases the database. The Store must not be used afterwards. An
// Unpublished file is switched to the write-ahead log first; it must not
// be used if that fails.
func (s *Store) Close() error {
	if s.unpublished {
		var mode string
		if err := s.db.QueryRow(`PRAGMA journal_mode = WAL`).Scan(&mode); err != nil || mode != "wal" {
			s.db.Close()
			return fmt.Errorf("%s: switch to the write-ahead log: %v (mode %q)", s.path, err, mode)
		}
	}
	return s.db.Close()
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// createPrivate creates an empty file with mode 0600 if none exists, so that
// SQLite (which copies the main file's mode to -wal and -shm) never creates a
// world-readable conversation log.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// dsn builds a file: URI, escaping the path so that '?', '#' and '%' in a
// directory name cannot be taken for URI syntax. Every connection of the
// pool runs the same pragmas; _txlock=immediate makes each write
// transaction take the write lock up front, so two writers queue on the busy
// timeout instead of failing at their first write.
func dsn(path string, busy time.Duration, unpublished bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busy.Milliseconds(), 10)+")")
	if unpublished {
		q.Add("_pragma", "journal_mode(MEMORY)") // see Options.Unpublished
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate")
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if u.Path != "" && u.Path[0] != '/' {
		u.Path = "/" + u.Path // Windows drive paths: file:///C:/...
	}
	return u.String()
}

// migration is one numbered schema change: SQL, or Go code for what SQL
// alone cannot do. Both run inside the migration transaction.
type migration struct {
	sql string
	fn  func(ctx context.Context, tx *sql.Tx) error
}

// migrations are applied in order; migration i (0-based) is schema version
// i+1. Never edit a released migration: append a new one. A new file runs
// them all, so it goes through the same code as an upgraded one.
var migrations = []migration{
	// 1: sessions and nodes, a node identified by its id alone.
	{sql: `CREATE TABLE sessions (
		id         TEXT PRIMARY KEY,
		provider   TEXT NOT NULL,
		first_time TEXT NOT NULL, -- RFC 3339 UTC, fixed width: sorts as text
		last_time  TEXT NOT NULL
	);
	CREATE TABLE nodes (
		seq             INTEGER PRIMARY KEY, -- insertion order; a parent always has a smaller seq
		id              TEXT NOT NULL UNIQUE,
		session         TEXT NOT NULL REFERENCES sessions(id),
		parent          TEXT,                -- node id; NULL for a root
		parent_seq      INTEGER,             -- the parent's seq, for fast walks
		role            TEXT NOT NULL,
		content         TEXT NOT NULL,
		speaker_id      TEXT NOT NULL DEFAULT '',
		speaker_display TEXT NOT NULL DEFAULT '',
		time            TEXT NOT NULL,
		tier            TEXT NOT NULL CHECK (tier IN ('owner', 'paired', 'unpaired')),
		grp             INTEGER NOT NULL DEFAULT 0,
		synthetic       INTEGER NOT NULL DEFAULT 0,
		metadata        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
		has_children    INTEGER NOT NULL DEFAULT 0,
		-- The written marker, extracted once per write so that walks do not
		-- parse JSON on every step.
		written         TEXT GENERATED ALWAYS AS (json_extract(metadata, '$.memory_written_scriptorium')) STORED,
		-- Parents are stored first, which makes every walk towards the root
		-- finite even if a bug tried to store a loop.
		CHECK (parent_seq < seq),
		CHECK ((parent IS NULL) = (parent_seq IS NULL))
	);
	CREATE INDEX nodes_session ON nodes(session, seq);
	CREATE INDEX nodes_tips ON nodes(session, seq) WHERE has_children = 0;
	CREATE TRIGGER nodes_has_children AFTER INSERT ON nodes WHEN NEW.parent_seq IS NOT NULL
	BEGIN
		UPDATE nodes SET has_children = 1 WHERE seq = NEW.parent_seq AND has_children = 0;
	END;`},
	// 2: a node is identified by (provider, session, id) and every session
	// has the archive thread name the writer stores it under.
	{fn: migrateNodeKeys},
	// 3: per-session pending turn counts, a cache (count.go). Any change
	// to a session's nodes drops its rows, so every writer of nodes —
	// import, markers, forget, later migrations — keeps it right.
	{sql: pendingCountsSchema},
	// 4: how far the hook's resumable imports have read each transcript
	// (offsets.go).
	{sql: fileOffsetsSchema},
	// 5: the owner's named turns, for the owner's name (ownernames.go).
	{sql: ownerNamesSchema},
}

// migrate brings the schema up to date. An up-to-date file is only read.
// Otherwise the version is read again inside a BEGIN IMMEDIATE transaction
// (the DSN's _txlock), so of several processes opening an old or new file at
// once one migrates and the others, queued on the busy timeout, find
// nothing left to do. A failed migration rolls back whole.
func (s *Store) migrate(ctx context.Context) error {
	current, err := readVersion(ctx, s.db)
	if err == nil && current == len(migrations) {
		return nil
	}
	if err == nil && current > len(migrations) {
		return fmt.Errorf("%w: version %d, this program knows %d", ErrSchemaTooNew, current, len(migrations))
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > len(migrations) {
		return fmt.Errorf("%w: version %d, this program knows %d", ErrSchemaTooNew, current, len(migrations))
	}
	now := time.Now().UTC().Format(time.RFC3339)
	for v := current + 1; v <= len(migrations); v++ {
		m := migrations[v-1]
		if m.sql != "" {
			_, err = tx.ExecContext(ctx, m.sql)
		} else {
			err = m.fn(ctx, tx)
		}
		if err != nil {
			return fmt.Errorf("apply migration %d: %w", v, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)`, v, now); err != nil {
			return fmt.Errorf("record migration %d: %w", v, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit migrations: %w", err)
	}
	return nil
}

// readVersion reads the schema version without taking the write lock; a
// file without schema_migrations (a new one) is version 0.
func readVersion(ctx context.Context, db *sql.DB) (int, error) {
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&tables); err != nil {
		return 0, err
	}
	if tables == 0 {
		return 0, nil
	}
	var v int
	err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}
