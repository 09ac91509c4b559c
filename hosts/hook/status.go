package hook

import (
	"scriptorium/engine/result"
	"scriptorium/engine/result/prompt"
)

// recordStatus updates the best-effort hook status file that `status`
// shows: the last success, or the last failure with its event
// (prompt.RecordHook, which the small client cmd/scriptorium-hook
// shares).
func recordStatus(opts Options, event string, err error) {
	prompt.RecordHook(opts.StateDir, opts.Now(), event, err)
}

// recordIndexState notes in the status file whether the prompt's recall
// came from the index as it stood (issue 24 §4: the hook answers from the
// old index and says so), and clears the note once one did not.
func recordIndexState(opts Options, stale bool) {
	prompt.UpdateHookStatus(opts.StateDir, opts.Now(), func(st *result.HookStatus, now string) {
		st.StaleIndexAt = ""
		if stale {
			st.StaleIndexAt = now
		}
	})
}
