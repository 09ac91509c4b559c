package engine

import (
	"encoding/json"
	"os"
	"path/filepath"

	"scriptorium/workspace"
)

// HookStatusFile is the agent hook's best-effort status file under the
// runtime directory, next to WriterStatusFile. The hook never fails the
// user's prompt, so this file (shown by status) is where its failures go.
const HookStatusFile = "hook-status.json"

// HookStatus is what the hook recorded about its last runs.
type HookStatus struct {
	LastSuccessAt string       `json:"last_success_at"`
	LastEvent     string       `json:"last_event"` // the event of the last success, e.g. "Stop"
	LastFailure   *HookFailure `json:"last_failure"`
	// StaleIndexAt is when the prompt hook last answered from the index as
	// it stood, because bringing it up to date (a full rebuild after edits
	// behind the engine's back) would not fit in the prompt's deadline;
	// empty once an answer came from an index brought up to date.
	StaleIndexAt string `json:"stale_index_at,omitempty"`
}

// HookFailure is the last failure the hook recorded.
type HookFailure struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	At      string `json:"at"`
	Event   string `json:"event"` // "" when the hook's input could not be read
}

// HookStatusPath is the hook status file of the workspace of stateDir. It
// is a function of the state dir alone because the hook must record the
// failures that kept it from opening the engine at all (a held lock, a
// broken config.toml). It is the file HookStatus reads.
func HookStatusPath(stateDir string) string {
	return workspace.RuntimePath(workspace.MemoryDir(stateDir), HookStatusFile)
}

// HookStatus reads the best-effort hook status file; a missing or damaged
// file reads as "nothing recorded yet".
func (e *Engine) HookStatus() HookStatus {
	var hs HookStatus
	data, err := os.ReadFile(filepath.Join(e.ws.RuntimeDir(), HookStatusFile))
	if err != nil {
		return hs
	}
	_ = json.Unmarshal(data, &hs)
	return hs
}
