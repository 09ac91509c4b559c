package engine

import (
	"context"
	"encoding/json"
	"scriptorium/engine/result"
	"time"
)

// RecordEvent appends an event to state.db.
func (e *Engine) RecordEvent(ctx context.Context, ev result.IngestEvent) error {
	data, _ := json.Marshal(ev)
	if err := e.rec.AddEvent(ctx, ev.Time, ev.Kind, data); err != nil {
		return AsError(err)
	}
	return nil
}

// Events returns the recorded ingest_ended events, newest first.
func (e *Engine) Events(ctx context.Context) ([]result.IngestEvent, error) {
	rows, err := e.rec.Events(ctx, "ingest_ended")
	if err != nil {
		return nil, AsError(err)
	}
	var out []result.IngestEvent
	for _, r := range rows {
		var ev result.IngestEvent
		if json.Unmarshal([]byte(r.Data), &ev) == nil {
			out = append(out, ev)
		}
	}
	return out, nil
}

// RecordAudit appends an owner decision that is not an install (a declined
// proposal, for example) to state.db's events, as JSON data of the kind.
func (e *Engine) RecordAudit(ctx context.Context, kind string, data any) error {
	doc, err := json.Marshal(data)
	if err != nil {
		return Wrap(CodeIO, err, "record %s", kind)
	}
	now := e.opts.Now().UTC().Format(time.RFC3339)
	if err := e.rec.AddEvent(ctx, now, kind, doc); err != nil {
		return AsError(err)
	}
	return nil
}
