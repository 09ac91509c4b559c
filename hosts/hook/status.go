package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine/result"
	"scriptorium/engine/runstatus"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// recordStatus updates the best-effort hook status file that `status`
// shows: the last success, or the last failure with its event. It writes
// only into a workspace that exists (memory/ is there), so a hook that
// could not open the engine never creates one; errors are ignored,
// because there is nowhere left to report them.
func recordStatus(opts Options, event string, err error) {
	updateStatus(opts, func(st *result.HookStatus, now string) {
		if err == nil {
			st.LastSuccessAt, st.LastEvent = now, event
		} else {
			ee := errcode.As(err)
			st.LastFailure = &result.HookFailure{Code: ee.Code, Message: ee.Message, At: now, Event: event}
		}
	})
}

// recordIndexState notes in the status file whether the prompt's recall
// came from the index as it stood (issue 24 §4: the hook answers from the
// old index and says so), and clears the note once one did not.
func recordIndexState(opts Options, stale bool) {
	updateStatus(opts, func(st *result.HookStatus, now string) {
		st.StaleIndexAt = ""
		if stale {
			st.StaleIndexAt = now
		}
	})
}

// updateStatus applies change to the status file.
func updateStatus(opts Options, change func(st *result.HookStatus, now string)) {
	if fi, serr := os.Stat(workspace.MemoryDir(opts.StateDir)); serr != nil || !fi.IsDir() {
		return
	}
	path := runstatus.HookPath(opts.StateDir)
	runtime := filepath.Dir(path)
	if os.MkdirAll(runtime, workspace.PrivateDir) != nil {
		return
	}
	var st result.HookStatus
	if data, rerr := os.ReadFile(path); rerr == nil {
		_ = json.Unmarshal(data, &st) // a damaged file is replaced
	}
	change(&st, opts.Now().UTC().Format(time.RFC3339))
	data, _ := json.MarshalIndent(st, "", "  ")
	_ = workspace.WriteFileAtomic(runtime, path, append(data, '\n'))
}
