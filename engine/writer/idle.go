package writer

import (
	"context"
	"encoding/json"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
)

// WriteIdle is the idle-session watcher (SPEC §7): every session whose
// last activity is older than idle is force-written. A retryable failure
// (lock busy, model unreachable) leaves the session pending for the next
// round. A final failure (auth, config, invalid output, rejected patch)
// would fail the same way forever, so the session is marked processed and
// an ingest_ended ok=false event is recorded instead of burning quota.
func WriteIdle(ctx context.Context, e *engine.Engine, idle time.Duration) error {
	w := newWriter(e)
	if !fileExists(w.sessionsPath()) {
		return nil
	}
	store, err := w.sessionStore()
	if err != nil {
		return err
	}
	pending, err := store.PendingSessions(e.WorkspaceID())
	store.Close()
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "sessions.db")
	}
	cutoff := e.Now().Add(-idle)
	var firstRetryable error
	for _, p := range pending {
		if p.LastActivity.After(cutoff) {
			continue
		}
		_, err := Write(ctx, e, WriteOptions{Force: true, Session: p.Session, Provider: p.Provider})
		ev := result.IngestEvent{Kind: "ingest_ended", Session: p.Session, OK: err == nil, Time: formatTime(e.Now())}
		if err != nil {
			ee := errcode.As(err)
			if ee.Retryable() {
				if firstRetryable == nil {
					firstRetryable = err
				}
				continue // tried again on the next round; no event yet
			}
			ev.Code, ev.Message = ee.Code, ee.Message
			if err := w.markSessionProcessed(p.Key()); err != nil {
				return err
			}
		}
		if err := recordEvent(ctx, e, ev); err != nil {
			return err
		}
	}
	return firstRetryable
}

// markSessionProcessed marks every pending turn of every branch written,
// so a session whose content can never be written stops being retried.
func (w *writer) markSessionProcessed(session sessions.SessionKey) error {
	store, err := w.sessionStore()
	if err != nil {
		return err
	}
	defer store.Close()
	branches, err := store.Branches(session)
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "session %s", sessionName(session))
	}
	var keys []sessions.Key
	seen := map[sessions.Key]bool{}
	for _, b := range branches {
		turns, err := store.PendingTurns(b.Tip, w.e.WorkspaceID())
		if err != nil {
			return errcode.Wrap(errcode.IO, err, "session %s", sessionName(session))
		}
		for _, n := range turns {
			if !seen[n.Key()] {
				seen[n.Key()] = true
				keys = append(keys, n.Key())
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	if err := store.MarkWritten(keys, w.e.WorkspaceID()); err != nil {
		return errcode.Wrap(errcode.IO, err, "session %s processed", sessionName(session))
	}
	return nil
}

// recordEvent appends an ingest_ended event to state.db's events.
func recordEvent(ctx context.Context, e *engine.Engine, ev result.IngestEvent) error {
	data, _ := json.Marshal(ev) // plain strings and a bool: cannot fail
	if err := e.Records().AddEvent(ctx, ev.Time, ev.Kind, data); err != nil {
		return errcode.As(err)
	}
	return nil
}
