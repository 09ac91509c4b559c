package writer_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/engine/runstatus"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// failingModel answers every request with one error.
type failingModel struct{ err error }

func (f failingModel) Name() string { return "fake:failing" }
func (f failingModel) Complete(context.Context, model.Request) (model.Response, error) {
	return model.Response{}, f.err
}

func importTurns(t *testing.T, state, jsonl string) {
	t.Helper()
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Import(strings.NewReader(jsonl)); err != nil {
		t.Fatal(err)
	}
}

func TestWriteIdle_RetryableVersusFinal(t *testing.T) {
	const turns = `{"session":"old","id":"o1","role":"user","content":"I like tea.","time":"2026-01-01T10:00:00Z","tier":"owner"}
{"session":"new","id":"n1","role":"user","content":"I like coffee.","time":"2026-01-01T11:55:00Z","tier":"owner"}
`
	now := func() time.Time { return time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC) }
	cases := []struct {
		name        string
		err         *model.Error
		wantPending int
		wantEvent   bool
	}{
		{"retryable", &model.Error{Code: model.CodeUnavailable, Retryable: true, Message: "connection refused"}, 2, false},
		{"final", &model.Error{Code: model.CodeAuth, Message: "401"}, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := t.TempDir()
			importTurns(t, state, turns)
			e, err := engine.Open(context.Background(), engine.Options{StateDir: state, Now: now, Model: failingModel{c.err}})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			err = writer.WriteIdle(context.Background(), e, 30*time.Minute)
			if c.err.Retryable != (err != nil) {
				t.Fatalf("WriteIdle error = %v, want one only for a retryable failure", err)
			}
			if got := sessions.PendingTurnCount(workspace.SessionsDB(state), e.WorkspaceID()); got != c.wantPending {
				t.Errorf("pending turns = %d, want %d (the session idle for 2 h is %s)", got, c.wantPending, c.name)
			}
			evs, err := ingestEvents(e)
			if err != nil {
				t.Fatal(err)
			}
			if c.wantEvent != (len(evs) == 1) {
				t.Fatalf("events = %+v", evs)
			}
			if c.wantEvent && (evs[0].OK || evs[0].Session != "old" || evs[0].Code != errcode.ModelAuth) {
				t.Errorf("event = %+v, want ingest_ended ok=false for session old with MODEL_AUTH", evs[0])
			}
			st := runstatus.Writer(e.RuntimeDir())
			if st.LastFailure == nil || st.LastFailure.Retryable != c.err.Retryable {
				t.Errorf("writer status %+v does not record the %s failure", st.LastFailure, c.name)
			}
		})
	}
}

// ingestEvents reads the recorded ingest_ended events, newest first.
func ingestEvents(e *engine.Engine) ([]result.IngestEvent, error) {
	rows, err := e.Records().Events(context.Background(), "ingest_ended")
	if err != nil {
		return nil, err
	}
	var out []result.IngestEvent
	for _, r := range rows {
		var ev result.IngestEvent
		if err := json.Unmarshal([]byte(r.Data), &ev); err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}
