package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine"
	"scriptorium/workspace"
)

// recordStatus updates the best-effort hook status file that `status`
// shows: the last success, or the last failure with its event. It writes
// only into a workspace that exists (memory/ is there), so a hook that
// could not open the engine never creates one; errors are ignored,
// because there is nowhere left to report them.
func recordStatus(opts Options, event string, err error) {
	if fi, serr := os.Stat(workspace.MemoryDir(opts.StateDir)); serr != nil || !fi.IsDir() {
		return
	}
	path := engine.HookStatusPath(opts.StateDir)
	runtime := filepath.Dir(path)
	if os.MkdirAll(runtime, workspace.PrivateDir) != nil {
		return
	}
	var st engine.HookStatus
	if data, rerr := os.ReadFile(path); rerr == nil {
		_ = json.Unmarshal(data, &st) // a damaged file is replaced
	}
	now := opts.Now().UTC().Format(time.RFC3339)
	if err == nil {
		st.LastSuccessAt, st.LastEvent = now, event
	} else {
		ee := engine.AsError(err)
		st.LastFailure = &engine.HookFailure{Code: ee.Code, Message: ee.Message, At: now, Event: event}
	}
	data, _ := json.MarshalIndent(st, "", "  ")
	_ = workspace.WriteFileAtomic(runtime, path, append(data, '\n'))
}
