package writer

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/engine/runstatus"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// One poisoned session must not stop the writer for everyone: a batch that
// fails for good (the model's answer is not an edit list, its edits are
// rejected, the thread's archive is damaged) fails its own session, which
// is recorded in the writer status, and the run goes on with the others.
// Failures that would hit every session alike (the lock, the model's
// reachability or credentials, the caller's rights) stop the run as before.

// sessionFailure is one session a run could not write.
type sessionFailure struct {
	key sessions.SessionKey
	err *errcode.Error
}

// sessionLocal reports whether err belongs to the batch of one session,
// so the writer may go on with the next.
func sessionLocal(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	switch errcode.As(err).Code {
	case errcode.Rejected, errcode.ModelOutputInvalid, errcode.InvalidArgument,
		errcode.NotFound, errcode.IO:
		return true
	}
	// CONFLICT, LOCK_BUSY, MODEL_UNAVAILABLE (retryable), MODEL_AUTH,
	// MODEL_CONFIG, NOT_CONFIGURED, FORBIDDEN, MEMORY_DISABLED: the same
	// for every session.
	return false
}

func sessionName(k sessions.SessionKey) string {
	p := k.Provider
	if p == "" {
		p = sessions.DefaultProvider
	}
	return p + "/" + k.Session
}

// failedError summarises the sessions a run could not write. Its code is
// the first failure's (final, as every session-local code is), and it
// carries every failure's violations.
func (w *writer) failedError() error {
	first := w.failed[0].err
	out := &errcode.Error{Code: first.Code, Err: first}
	parts := make([]string, 0, len(w.failed))
	for _, f := range w.failed {
		parts = append(parts, fmt.Sprintf("%s (%s: %s)", sessionName(f.key), f.err.Code, f.err.Message))
		out.Violations = append(out.Violations, f.err.Violations...)
	}
	out.Message = fmt.Sprintf("%d session(s) not written: %s", len(w.failed), strings.Join(parts, "; "))
	if len(w.written) > 0 {
		out.Message += fmt.Sprintf("; %d other session(s) written", len(w.written))
	}
	return out
}

// recordWriterOutcome updates the best-effort writer status file. It sits
// outside transactions: failing to write it changes no outcome. Sessions
// that failed in this run replace their earlier entries; sessions written
// in this run lose theirs; the others keep theirs.
func (w *writer) recordWriterOutcome(ctx context.Context, res WriteResult, err error) {
	st := runstatus.Writer(w.e.RuntimeDir())
	now := formatTime(w.e.Now())
	if err == nil {
		if res.Batches > 0 || st.LastSuccessAt == "" {
			st.LastSuccessAt = now
		}
	} else {
		ee := errcode.As(err)
		st.LastFailure = &result.WriterFailure{Code: ee.Code, Retryable: ee.Retryable(), Message: ee.Message, At: now}
		if res.Batches > 0 {
			st.LastSuccessAt = now // the other sessions were written
		}
	}
	drop := map[string]bool{}
	for _, k := range w.written {
		drop[sessionName(k)] = true
	}
	for _, f := range w.failed {
		drop[sessionName(f.key)] = true
	}
	kept := []result.WriterSessionFailure{}
	for _, f := range st.FailedSessions {
		if !drop[f.Provider+"/"+f.Session] {
			kept = append(kept, f)
		}
	}
	for _, f := range w.failed {
		p := f.key.Provider
		if p == "" {
			p = sessions.DefaultProvider
		}
		kept = append(kept, result.WriterSessionFailure{Provider: p, Session: f.key.Session,
			Code: f.err.Code, Message: f.err.Error(), At: now})
	}
	st.FailedSessions = kept
	st.PendingTurns = sessions.PendingTurnCount(w.sessionsPath(), w.e.WorkspaceID())
	data, _ := json.MarshalIndent(st, "", "  ")
	dir := w.e.RuntimeDir()
	_ = workspace.WriteFileAtomic(dir, filepath.Join(dir, runstatus.WriterFile), append(data, '\n'))
}
