package forget

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine/result"
)

// fileChange is a history row's recorded bytes of one file (the core's
// JSON of history.files).
type fileChange struct {
	Before []byte `json:"before"`
	After  []byte `json:"after"`
}

// The state.db part of a forget's clean-up: history rows, sleep pass
// reports and events that kept a copy of the forgotten text.

// sqlConn is what the state.db scrub needs: e.db for a dry run, one
// pinned connection for the real one.
type sqlConn interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// scrubNote replaces a diff that held forgotten text.
func scrubNote(rev int64) string { return fmt.Sprintf("(removed by forget at revision %d)\n", rev) }

// scrubState finds, and with apply scrubs, the state.db rows that hold a
// needle: history rows lose the recorded bytes and diffs of those files
// (and are marked scrubbed_by, so revert refuses them), pass reports the
// diffs, events their data. It returns one line per row.
func scrubState(ctx context.Context, db sqlConn, rev int64, nd needles, apply bool) ([]string, error) {
	var out []string
	type hrow struct {
		rev          int64
		kind         string
		diffs, files string
	}
	var hist []hrow
	if err := eachRow(ctx, db, `SELECT revision, kind, diffs, files FROM history WHERE revision <> ? ORDER BY revision`,
		[]any{rev}, func(r *sql.Rows) error {
			var h hrow
			err := r.Scan(&h.rev, &h.kind, &h.diffs, &h.files)
			hist = append(hist, h)
			return err
		}); err != nil {
		return nil, fmt.Errorf("read history: %w", err)
	}
	for _, h := range hist {
		var diffs map[string]string
		var files map[string]fileChange
		_ = json.Unmarshal([]byte(h.diffs), &diffs)
		_ = json.Unmarshal([]byte(h.files), &files)
		var hit []string
		for _, p := range unionKeys(diffs, files) {
			fc := files[p]
			if nd.hit(diffs[p]) || nd.hitBytes(fc.Before) || nd.hitBytes(fc.After) {
				hit = append(hit, p)
				delete(files, p)
				if _, ok := diffs[p]; ok {
					diffs[p] = scrubNote(rev)
				}
			}
		}
		if len(hit) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("history revision %d (%s): the recorded bytes and diffs of %s", h.rev, h.kind, strings.Join(hit, ", ")))
		if !apply {
			continue
		}
		dj, _ := json.Marshal(diffs)
		fj := []byte("{}")
		if len(files) > 0 {
			fj, _ = json.Marshal(files)
		}
		if _, err := db.ExecContext(ctx, `UPDATE history SET diffs = ?, files = ?, scrubbed_by = ? WHERE revision = ?`,
			string(dj), string(fj), rev, h.rev); err != nil {
			return nil, fmt.Errorf("scrub history revision %d: %w", h.rev, err)
		}
	}
	type prow struct {
		id             int64
		changed, error string
	}
	var passes []prow
	if err := eachRow(ctx, db, `SELECT id, changed, error FROM passes ORDER BY id`, nil, func(r *sql.Rows) error {
		var p prow
		err := r.Scan(&p.id, &p.changed, &p.error)
		passes = append(passes, p)
		return err
	}); err != nil {
		return nil, fmt.Errorf("read sleep passes: %w", err)
	}
	for _, p := range passes {
		var changed []result.FileDiff
		_ = json.Unmarshal([]byte(p.changed), &changed)
		var hit []string
		for i, c := range changed {
			if nd.hit(c.Diff) {
				hit = append(hit, c.Path)
				changed[i].Diff = scrubNote(rev)
			}
		}
		errText := p.error
		if nd.hit(errText) {
			hit, errText = append(hit, "its error"), strings.TrimSpace(scrubNote(rev))
		}
		if len(hit) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("sleep pass #%d: the diffs of %s", p.id, strings.Join(hit, ", ")))
		if !apply {
			continue
		}
		cj, _ := json.Marshal(changed)
		if _, err := db.ExecContext(ctx, `UPDATE passes SET changed = ?, error = ? WHERE id = ?`, string(cj), errText, p.id); err != nil {
			return nil, fmt.Errorf("scrub sleep pass %d: %w", p.id, err)
		}
	}
	type erow struct {
		id         int64
		kind, data string
	}
	var events []erow
	if err := eachRow(ctx, db, `SELECT id, kind, data FROM events ORDER BY id`, nil, func(r *sql.Rows) error {
		var ev erow
		err := r.Scan(&ev.id, &ev.kind, &ev.data)
		events = append(events, ev)
		return err
	}); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	for _, ev := range events {
		if !jsonHolds([]byte(ev.data), nd) {
			continue
		}
		out = append(out, fmt.Sprintf("event %d (%s): its data", ev.id, ev.kind))
		if !apply {
			continue
		}
		data, _ := json.Marshal(map[string]any{"kind": ev.kind, "scrubbed_by": rev})
		if _, err := db.ExecContext(ctx, `UPDATE events SET data = ? WHERE id = ?`, string(data), ev.id); err != nil {
			return nil, fmt.Errorf("scrub event %d: %w", ev.id, err)
		}
	}
	return out, nil
}

func eachRow(ctx context.Context, db sqlConn, q string, args []any, fn func(*sql.Rows) error) error {
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

func unionKeys(diffs map[string]string, files map[string]fileChange) []string {
	set := map[string]bool{}
	for p := range diffs {
		set[p] = true
	}
	for p := range files {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// jsonHolds reports whether any string of a JSON document, or the bytes a
// base64 string encodes ([]byte fields), holds a needle. Matching decoded
// strings finds text that JSON escaping hides from a byte search.
func jsonHolds(data []byte, nd needles) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nd.hitBytes(data)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			if nd.hit(x) {
				return true
			}
			if len(x) >= 4 && len(x)%4 == 0 {
				if b, err := base64.StdEncoding.DecodeString(x); err == nil && nd.hitBytes(b) {
					return true
				}
			}
		case []any:
			for _, y := range x {
				if walk(y) {
					return true
				}
			}
		case map[string]any:
			for k, y := range x {
				if nd.hit(k) || walk(y) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
