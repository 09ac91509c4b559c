// Package runstatus owns the best-effort status files under the
// workspace's runtime directory that status shows (SPEC §7): the writer's
// and the agent hook's. Their writers (engine/writer, hosts/hook) and the
// core's Status read and name them here, so no one else spells the files.
// A leaf: it knows the layout (workspace) and the shapes (engine/result).
package runstatus

import (
	"encoding/json"
	"os"
	"path/filepath"

	"scriptorium/engine/result"
	"scriptorium/engine/result/prompt"
)

// WriterFile is the writer's best-effort status file under the runtime
// directory.
const WriterFile = "writer-status.json"

// HookFile is the agent hook's best-effort status file, next to
// WriterFile (named in engine/result/prompt, which the small hook client
// links).
const HookFile = prompt.HookFile

// HookPath is the hook status file of the workspace of stateDir. It is the
// file Hook reads.
func HookPath(stateDir string) string { return prompt.HookPath(stateDir) }

// Writer reads the writer status file of runtimeDir; a missing or damaged
// file reads as "nothing recorded yet".
func Writer(runtimeDir string) result.WriterStatus {
	ws := result.WriterStatus{FailedSessions: []result.WriterSessionFailure{}}
	data, err := os.ReadFile(filepath.Join(runtimeDir, WriterFile))
	if err != nil {
		return ws
	}
	if json.Unmarshal(data, &ws) != nil {
		return result.WriterStatus{FailedSessions: []result.WriterSessionFailure{}}
	}
	if ws.FailedSessions == nil {
		ws.FailedSessions = []result.WriterSessionFailure{}
	}
	return ws
}

// Hook reads the hook status file of runtimeDir; a missing or damaged file
// reads as "nothing recorded yet".
func Hook(runtimeDir string) result.HookStatus {
	var hs result.HookStatus
	data, err := os.ReadFile(filepath.Join(runtimeDir, HookFile))
	if err != nil {
		return hs
	}
	_ = json.Unmarshal(data, &hs)
	return hs
}
