package engine

import (
	"context"
	"encoding/json"
	"time"
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

// RecordEvent appends an event to state.db.
func (e *Engine) RecordEvent(ctx context.Context, ev IngestEvent) error {
	data, _ := json.Marshal(ev)
	if _, err := e.db.ExecContext(ctx, `INSERT INTO events (time, kind, data) VALUES (?, ?, ?)`, ev.Time, ev.Kind, string(data)); err != nil {
		return Wrap(CodeIO, err, "record %s event", ev.Kind)
	}
	return nil
}

// Events returns the recorded ingest_ended events, newest first.
func (e *Engine) Events(ctx context.Context) ([]IngestEvent, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT data FROM events WHERE kind = 'ingest_ended' ORDER BY id DESC`)
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

// RecordAudit appends an owner decision that is not an install (a declined
// proposal, for example) to state.db's events, as JSON data of the kind.
func (e *Engine) RecordAudit(ctx context.Context, kind string, data any) error {
	doc, err := json.Marshal(data)
	if err != nil {
		return Wrap(CodeIO, err, "record %s", kind)
	}
	now := e.opts.Now().UTC().Format(time.RFC3339)
	if _, err := e.db.ExecContext(ctx, `INSERT INTO events (time, kind, data) VALUES (?, ?, ?)`, now, kind, string(doc)); err != nil {
		return Wrap(CodeIO, err, "record %s", kind)
	}
	return nil
}
