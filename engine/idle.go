package engine

import (
	"context"
	"encoding/json"
	"time"

	"scriptorium/workspace"
)

// IngestEvent is an `ingest_ended` event: the outcome of the idle
// watcher's final write of a session.
type IngestEvent struct {
	Kind    string `json:"kind"` // "ingest_ended"
	Session string `json:"session"`
	OK      bool   `json:"ok"`
	Code    Code   `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Time    string `json:"time"`
}

// WriteIdle is the idle-session watcher (SPEC §7): every session whose
// last activity is older than idle is force-written. A retryable failure
// (lock busy, model unreachable) leaves the session pending for the next
// round. A final failure (auth, config, invalid output, rejected patch)
// would fail the same way forever, so the session is marked processed and
// an ingest_ended ok=false event is recorded instead of burning quota.
func (e *Engine) WriteIdle(ctx context.Context, idle time.Duration) error {
	if !fileExists(sessionsPath(e)) {
		return nil
	}
	store, err := e.sessionStore()
	if err != nil {
		return err
	}
	pending, err := store.PendingSessions(e.ws.ID())
	store.Close()
	if err != nil {
		return Wrap(CodeIO, err, "read pending sessions")
	}
	cutoff := e.opts.Now().Add(-idle)
	var firstRetryable error
	for _, p := range pending {
		if p.LastActivity.After(cutoff) {
			continue
		}
		_, err := e.Write(ctx, WriteOptions{Force: true, Session: p.Session})
		ev := IngestEvent{Kind: "ingest_ended", Session: p.Session, OK: err == nil, Time: formatTime(e.opts.Now())}
		if err != nil {
			ee := AsError(err)
			if ee.Retryable() {
				if firstRetryable == nil {
					firstRetryable = err
				}
				continue // tried again on the next round; no event yet
			}
			ev.Code, ev.Message = ee.Code, ee.Message
			if err := e.markSessionProcessed(p.Session); err != nil {
				return err
			}
		}
		if err := e.recordEvent(ctx, ev); err != nil {
			return err
		}
	}
	return firstRetryable
}

func sessionsPath(e *Engine) string { return workspace.SessionsDB(e.state) }

// markSessionProcessed marks every pending turn of every branch written,
// so a session whose content can never be written stops being retried.
func (e *Engine) markSessionProcessed(session string) error {
	store, err := e.sessionStore()
	if err != nil {
		return err
	}
	defer store.Close()
	branches, err := store.Branches(session)
	if err != nil {
		return Wrap(CodeIO, err, "read branches of %s", session)
	}
	var ids []string
	seen := map[string]bool{}
	for _, b := range branches {
		turns, err := store.PendingTurns(session, b.Tip, e.ws.ID())
		if err != nil {
			return Wrap(CodeIO, err, "read pending turns of %s", session)
		}
		for _, n := range turns {
			if !seen[n.ID] {
				seen[n.ID] = true
				ids = append(ids, n.ID)
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	if err := store.MarkWritten(ids, e.ws.ID()); err != nil {
		return Wrap(CodeIO, err, "mark session %s processed", session)
	}
	return nil
}

// recordEvent appends an event to state.db.
func (e *Engine) recordEvent(ctx context.Context, ev IngestEvent) error {
	data, _ := json.Marshal(ev)
	if _, err := e.db.ExecContext(ctx, `INSERT INTO events (time, kind, data) VALUES (?, ?, ?)`, ev.Time, ev.Kind, string(data)); err != nil {
		return Wrap(CodeIO, err, "record %s event", ev.Kind)
	}
	return nil
}

// Events returns recorded events, newest first.
func (e *Engine) Events(ctx context.Context) ([]IngestEvent, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT data FROM events ORDER BY id DESC`)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read events")
	}
	defer rows.Close()
	var out []IngestEvent
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, Wrap(CodeIO, err, "read events")
		}
		var ev IngestEvent
		if json.Unmarshal([]byte(data), &ev) == nil {
			out = append(out, ev)
		}
	}
	return out, rows.Err()
}
