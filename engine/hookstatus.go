package engine

import (
	"encoding/json"
	"os"
	"path/filepath"

	"scriptorium/engine/result"
	"scriptorium/workspace"
)

// HookStatusFile is the agent hook's best-effort status file under the
// runtime directory, next to WriterStatusFile. The hook never fails the
// user's prompt, so this file (shown by status) is where its failures go.
const HookStatusFile = "hook-status.json"

// HookStatusPath is the hook status file of the workspace of stateDir. It
// is a function of the state dir alone because the hook must record the
// failures that kept it from opening the engine at all (a held lock, a
// broken config.toml). It is the file HookStatus reads.
func HookStatusPath(stateDir string) string {
	return workspace.RuntimePath(workspace.MemoryDir(stateDir), HookStatusFile)
}

// HookStatus reads the best-effort hook status file; a missing or damaged
// file reads as "nothing recorded yet".
func (e *Engine) HookStatus() result.HookStatus {
	var hs result.HookStatus
	data, err := os.ReadFile(filepath.Join(e.ws.RuntimeDir(), HookStatusFile))
	if err != nil {
		return hs
	}
	_ = json.Unmarshal(data, &hs)
	return hs
}
