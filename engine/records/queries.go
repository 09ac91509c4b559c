package records

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// FileDiff is one file an install or a pass changed, as a unified diff.
type FileDiff struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
}

// HistoryRow is one install as the history table holds it, without the
// recorded file bytes (Files reads those).
type HistoryRow struct {
	Revision int64
	Time     string // RFC 3339, UTC
	Actor    string
	Kind     string
	Changed  []string
	Diffs    map[string]string
	Reverts  int64
	Sources  []string
}

// Histories reads every install, in no particular order.
func (s *Store) Histories(ctx context.Context) ([]HistoryRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT revision, time, actor, kind, changed, diffs, reverts, sources FROM history`)
	if err != nil {
		return nil, fmt.Errorf("read history from state.db: %w", err)
	}
	defer rows.Close()
	var out []HistoryRow
	for rows.Next() {
		var h HistoryRow
		var changed, diffs, sources string
		if err := rows.Scan(&h.Revision, &h.Time, &h.Actor, &h.Kind, &changed, &diffs, &h.Reverts, &sources); err != nil {
			return nil, fmt.Errorf("read history from state.db: %w", err)
		}
		_ = json.Unmarshal([]byte(changed), &h.Changed)
		_ = json.Unmarshal([]byte(diffs), &h.Diffs)
		_ = json.Unmarshal([]byte(sources), &h.Sources)
		h.Changed, h.Sources = NonNil(h.Changed), NonNil(h.Sources)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read history from state.db: %w", err)
	}
	return out, nil
}

// Revision is one install with the topic bytes it recorded, as a revert
// needs it. ScrubbedBy is the forget that removed those bytes, or 0.
type Revision struct {
	Revision   int64
	Kind       string
	Changed    []string
	Files      map[string]FileChange
	ScrubbedBy int64
}

// ErrNoRevision is returned by Files when no install has the revision.
var ErrNoRevision = errors.New("no such revision")

// Files reads the install of revision rev with its recorded file bytes.
func (s *Store) Files(ctx context.Context, rev int64) (Revision, error) {
	r := Revision{Revision: rev}
	var changed, files string
	err := s.db.QueryRowContext(ctx, `SELECT kind, changed, files, scrubbed_by FROM history WHERE revision = ?`, rev).
		Scan(&r.Kind, &changed, &files, &r.ScrubbedBy)
	if errors.Is(err, sql.ErrNoRows) {
		return r, ErrNoRevision
	}
	if err != nil {
		return r, fmt.Errorf("read history of revision %d from state.db: %w", rev, err)
	}
	_ = json.Unmarshal([]byte(changed), &r.Changed)
	if err := json.Unmarshal([]byte(files), &r.Files); err != nil {
		return r, fmt.Errorf("read the files of revision %d from state.db: %w", rev, err)
	}
	return r, nil
}

// FilesAfter reads every install after revision after, oldest first, with
// its recorded file bytes.
func (s *Store) FilesAfter(ctx context.Context, after int64) ([]Revision, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT revision, kind, changed, files, scrubbed_by FROM history WHERE revision > ? ORDER BY revision`, after)
	if err != nil {
		return nil, fmt.Errorf("read history from state.db: %w", err)
	}
	defer rows.Close()
	var out []Revision
	for rows.Next() {
		var r Revision
		var changed, files string
		if err := rows.Scan(&r.Revision, &r.Kind, &changed, &files, &r.ScrubbedBy); err != nil {
			return nil, fmt.Errorf("read history from state.db: %w", err)
		}
		_ = json.Unmarshal([]byte(changed), &r.Changed)
		_ = json.Unmarshal([]byte(files), &r.Files)
		out = append(out, r)
	}
	return out, rows.Err()
}

// LastInstall is the newest revision and the topic files it changed; 0
// and none when nothing was installed or state.db cannot be read.
func (s *Store) LastInstall(ctx context.Context) (int64, []string) {
	var rev int64
	var changed string
	if err := s.db.QueryRowContext(ctx, `SELECT revision, changed FROM history ORDER BY revision DESC LIMIT 1`).
		Scan(&rev, &changed); err != nil {
		return 0, []string{}
	}
	var paths, topics []string
	_ = json.Unmarshal([]byte(changed), &paths)
	for _, p := range paths {
		if strings.HasPrefix(p, "topics/") {
			topics = append(topics, p)
		}
	}
	return rev, NonNil(topics)
}

// Event is one row of the events table: its time and its JSON data.
type Event struct {
	Time string
	Data string
}

// AddEvent appends an event of kind with its JSON data.
func (s *Store) AddEvent(ctx context.Context, time, kind string, data []byte) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO events (time, kind, data) VALUES (?, ?, ?)`, time, kind, string(data)); err != nil {
		return fmt.Errorf("record %s event in state.db: %w", kind, err)
	}
	return nil
}

// Events reads the events of kind, newest first.
func (s *Store) Events(ctx context.Context, kind string) ([]Event, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT time, data FROM events WHERE kind = ? ORDER BY id DESC`, kind)
	if err != nil {
		return nil, fmt.Errorf("read events from state.db: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var ev Event
		if err := rows.Scan(&ev.Time, &ev.Data); err != nil {
			return nil, fmt.Errorf("read events from state.db: %w", err)
		}
		out = append(out, ev)
	}
	return out, rows.Err()
}

// Pass is one sleep pass report as the passes table holds it.
type Pass struct {
	ID        int64
	Time      string
	Model     string
	Revision  int64 // the install, 0 when the pass changed nothing
	Changed   []FileDiff
	TokensIn  int
	TokensOut int
	Error     string
	CoreGap   []string
}

// AddPass appends a pass report and returns its number. It outlives a
// cancelled caller: the pass already ran.
func (s *Store) AddPass(ctx context.Context, p Pass) (int64, error) {
	if p.Changed == nil {
		p.Changed = []FileDiff{}
	}
	changed, err := json.Marshal(p.Changed)
	if err != nil {
		return 0, fmt.Errorf("record sleep pass in state.db: %w", err)
	}
	gap, err := json.Marshal(NonNil(p.CoreGap))
	if err != nil {
		return 0, fmt.Errorf("record sleep pass in state.db: %w", err)
	}
	res, err := s.db.ExecContext(context.WithoutCancel(ctx), `INSERT INTO passes
		(time, model, revision, changed, tokens_in, tokens_out, error, core_gap) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Time, p.Model, p.Revision, string(changed), p.TokensIn, p.TokensOut, p.Error, string(gap))
	if err != nil {
		return 0, fmt.Errorf("record sleep pass in state.db: %w", err)
	}
	id, _ := res.LastInsertId()
	return id, nil
}

// Passes reads every sleep pass report, newest first.
func (s *Store) Passes(ctx context.Context) ([]Pass, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, time, model, revision, changed, tokens_in, tokens_out, error, core_gap
		FROM passes ORDER BY id DESC`)
	if err != nil {
		return nil, fmt.Errorf("read sleep passes from state.db: %w", err)
	}
	defer rows.Close()
	var out []Pass
	for rows.Next() {
		var p Pass
		var changed, gap string
		if err := rows.Scan(&p.ID, &p.Time, &p.Model, &p.Revision, &changed, &p.TokensIn, &p.TokensOut, &p.Error, &gap); err != nil {
			return nil, fmt.Errorf("read sleep passes from state.db: %w", err)
		}
		_ = json.Unmarshal([]byte(changed), &p.Changed)
		_ = json.Unmarshal([]byte(gap), &p.CoreGap)
		if p.Changed == nil {
			p.Changed = []FileDiff{}
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
