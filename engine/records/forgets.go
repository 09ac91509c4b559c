package records

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"scriptorium/engine/sessions"
)

// The forget ledger (the forgets table) and the scrub of the rows that may
// keep a copy of a forgotten text. What a row holds is forget's to judge
// (engine/forget); reading and rewriting the rows is here.

// ForgetRow is one forget of the ledger. Selector, Records, Blocks and
// Labels are forget's JSON documents, stored as they are given.
type ForgetRow struct {
	Revision                          int64
	Time, Actor                       string
	Selector, Records, Blocks, Labels json.RawMessage
	Turns                             int
	Cleaned                           []string
	Done                              bool
}

// AddForget writes the ledger row of a forget; a row for its revision
// already there is kept (the finish step may add it again).
func (s *Store) AddForget(ctx context.Context, f ForgetRow) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO forgets (revision, time, actor, selector, records, blocks, labels)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, f.Revision, f.Time, f.Actor, string(f.Selector), string(f.Records), string(f.Blocks), string(f.Labels))
	return err
}

const forgetCols = `revision, time, actor, selector, records, blocks, labels, turns, cleaned, done`

func scanForget(sc interface{ Scan(...any) error }) (ForgetRow, error) {
	var f ForgetRow
	var sel, recs, blocks, labels, cleaned string
	err := sc.Scan(&f.Revision, &f.Time, &f.Actor, &sel, &recs, &blocks, &labels, &f.Turns, &cleaned, &f.Done)
	f.Selector, f.Records, f.Blocks, f.Labels = json.RawMessage(sel), json.RawMessage(recs), json.RawMessage(blocks), json.RawMessage(labels)
	_ = json.Unmarshal([]byte(cleaned), &f.Cleaned)
	f.Cleaned = NonNil(f.Cleaned)
	return f, err
}

// Forget reads the ledger row of the forget of revision rev
// (sql.ErrNoRows when there is none).
func (s *Store) Forget(ctx context.Context, rev int64) (ForgetRow, error) {
	return scanForget(s.db.QueryRowContext(ctx, `SELECT `+forgetCols+` FROM forgets WHERE revision = ?`, rev))
}

// Forgets reads the ledger, newest first.
func (s *Store) Forgets(ctx context.Context) ([]ForgetRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+forgetCols+` FROM forgets ORDER BY revision DESC`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ForgetRow
	for rows.Next() {
		f, err := scanForget(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// CopyRows are the rows that may hold a copy of memory text: every
// install's recorded diffs and file bytes (but the one of revision skip),
// every sleep pass's diffs and error, every event's data.
type CopyRows struct {
	History []HistoryCopy
	Passes  []PassCopy
	Events  []EventCopy
}

// HistoryCopy is one install's recorded diffs and files, as JSON.
type HistoryCopy struct {
	Revision     int64
	Kind         string
	Diffs, Files string
}

// PassCopy is one sleep pass's changed diffs (JSON) and error.
type PassCopy struct {
	ID             int64
	Changed, Error string
}

// EventCopy is one event's data (JSON).
type EventCopy struct {
	ID         int64
	Kind, Data string
}

// querier is the pool or one pinned connection.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Copies reads the rows that may hold a copy of memory text (a forget's
// preview); Scrub reads them again on its own connection.
func (s *Store) Copies(ctx context.Context, skip int64) (CopyRows, error) {
	return readCopies(ctx, s.db, skip)
}

func readCopies(ctx context.Context, db querier, skip int64) (CopyRows, error) {
	var c CopyRows
	if err := eachRow(ctx, db, `SELECT revision, kind, diffs, files FROM history WHERE revision <> ? ORDER BY revision`,
		[]any{skip}, func(r *sql.Rows) error {
			var h HistoryCopy
			err := r.Scan(&h.Revision, &h.Kind, &h.Diffs, &h.Files)
			c.History = append(c.History, h)
			return err
		}); err != nil {
		return c, fmt.Errorf("read history: %w", err)
	}
	if err := eachRow(ctx, db, `SELECT id, changed, error FROM passes ORDER BY id`, nil, func(r *sql.Rows) error {
		var p PassCopy
		err := r.Scan(&p.ID, &p.Changed, &p.Error)
		c.Passes = append(c.Passes, p)
		return err
	}); err != nil {
		return c, fmt.Errorf("read sleep passes: %w", err)
	}
	if err := eachRow(ctx, db, `SELECT id, kind, data FROM events ORDER BY id`, nil, func(r *sql.Rows) error {
		var ev EventCopy
		err := r.Scan(&ev.ID, &ev.Kind, &ev.Data)
		c.Events = append(c.Events, ev)
		return err
	}); err != nil {
		return c, fmt.Errorf("read events: %w", err)
	}
	return c, nil
}

func eachRow(ctx context.Context, db querier, q string, args []any, fn func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Scrubber rewrites the rows of one forget's clean-up on one pinned
// connection with secure_delete on, so what it frees is zeroed.
type Scrubber struct{ conn *sql.Conn }

// Scrub runs fn with a Scrubber.
func (s *Store) Scrub(ctx context.Context, fn func(*Scrubber) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// Zero what the scrub frees instead of leaving it in the pages' free
	// space (the VACUUM of Compact would drop it too; this costs nothing).
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `PRAGMA secure_delete = OFF`)
	return fn(&Scrubber{conn: conn})
}

// Copies reads the rows that may hold a copy (see Store.Copies).
func (w *Scrubber) Copies(ctx context.Context, skip int64) (CopyRows, error) {
	return readCopies(ctx, w.conn, skip)
}

// SetHistory replaces an install's recorded diffs and files and marks the
// row scrubbed by the forget of revision by (revert refuses such a row).
func (w *Scrubber) SetHistory(ctx context.Context, rev int64, diffs, files string, by int64) error {
	_, err := w.conn.ExecContext(ctx, `UPDATE history SET diffs = ?, files = ?, scrubbed_by = ? WHERE revision = ?`, diffs, files, by, rev)
	return err
}

// SetPass replaces a sleep pass's changed diffs and error.
func (w *Scrubber) SetPass(ctx context.Context, id int64, changed, errText string) error {
	_, err := w.conn.ExecContext(ctx, `UPDATE passes SET changed = ?, error = ? WHERE id = ?`, changed, errText, id)
	return err
}

// SetEvent replaces an event's data.
func (w *Scrubber) SetEvent(ctx context.Context, id int64, data string) error {
	_, err := w.conn.ExecContext(ctx, `UPDATE events SET data = ? WHERE id = ?`, data, id)
	return err
}

// AddCleaned adds to the ledger row of the forget of revision rev the
// sessions.db turns it blanked and the lines of what else it scrubbed.
func (w *Scrubber) AddCleaned(ctx context.Context, rev int64, turns int, cleaned []string) error {
	var prev string
	_ = w.conn.QueryRowContext(ctx, `SELECT cleaned FROM forgets WHERE revision = ?`, rev).Scan(&prev)
	var all []string
	_ = json.Unmarshal([]byte(prev), &all)
	doc, _ := json.Marshal(NonNil(append(all, cleaned...)))
	_, err := w.conn.ExecContext(ctx, `UPDATE forgets SET turns = turns + ?, cleaned = ? WHERE revision = ?`, turns, string(doc), rev)
	return err
}

// Compact rewrites state.db without its free pages and truncates its log,
// so no scrubbed byte is left in either.
func (w *Scrubber) Compact(ctx context.Context) error { return sessions.CompactConn(ctx, w.conn) }

// Done marks the forget of revision rev finished: its clean-up ran whole.
func (w *Scrubber) Done(ctx context.Context, rev int64) error {
	if _, err := w.conn.ExecContext(ctx, `UPDATE forgets SET done = 1 WHERE revision = ?`, rev); err != nil {
		return err
	}
	_, _ = w.conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return nil
}
