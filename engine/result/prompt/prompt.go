// Package prompt holds the prompt path's shapes that a small client links
// without the engine (cmd/scriptorium-hook): a recall's request and
// result, as the local socket carries them, and the hook's status file.
// engine/recall and engine/result name them by alias, so there is one
// definition. A leaf: it imports the error codes and the layout only.
package prompt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"scriptorium/errcode"
	"scriptorium/workspace"
)

// Item is one piece of a recall, in the order it appears inside the fence.
type Item struct {
	Kind   string `json:"kind"`   // "core", "project", "topic" or "source"
	Ref    string `json:"ref"`    // block id or source-id
	Path   string `json:"path"`   // workspace-relative: "topics/…", "sources/…"
	Anchor string `json:"anchor"` // "^<id>" or "source-<hash>"
	Date   string `json:"date"`   // YYYY-MM-DD; "" when memory gives none
	Tokens int    `json:"tokens"` // o200k_base tokens of Text on its own
	Text   string `json:"text"`   // the line as it stands inside the fence
}

// Result is the per-prompt context a host adds to a turn.
type Result struct {
	// Text is the whole context fenced once in <memory-context>, or ""
	// when there is nothing to recall.
	Text   string `json:"text"`
	Items  []Item `json:"items"`
	Tokens int    `json:"tokens"` // o200k_base tokens of Text; never more than Budget
	Budget int    `json:"budget"`
}

// Request is one recall.
type Request struct {
	Prompt string // the user's message, as it came
	Budget int    // o200k_base tokens; <= 0 means recall.budget_tokens
	// Cwd is the agent's working directory, when the host knows it: its
	// project's memory comes first.
	Cwd string
}

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
	Code    errcode.Code `json:"code"`
	Message string       `json:"message"`
	At      string       `json:"at"`
	Event   string       `json:"event"` // "" when the hook's input could not be read
}

// HookFile is the agent hook's best-effort status file in the workspace's
// runtime directory. The hook never fails the user's prompt, so this file
// (shown by status) is where its failures go.
const HookFile = "hook-status.json"

// HookPath is the hook status file of the workspace of stateDir. It is a
// function of the state dir alone because the hook must record the
// failures that kept it from opening the engine at all (a held lock, a
// broken config.toml).
func HookPath(stateDir string) string {
	return workspace.RuntimePath(workspace.MemoryDir(stateDir), HookFile)
}

// UpdateHookStatus applies change to the hook status file of stateDir,
// stamping it with now. It writes only into a workspace that exists
// (memory/ is there), so a hook that could not open the engine never
// creates one; errors are ignored, because there is nowhere left to
// report them.
func UpdateHookStatus(stateDir string, now time.Time, change func(st *HookStatus, now string)) {
	if fi, serr := os.Stat(workspace.MemoryDir(stateDir)); serr != nil || !fi.IsDir() {
		return
	}
	path := HookPath(stateDir)
	runtime := filepath.Dir(path)
	if os.MkdirAll(runtime, workspace.PrivateDir) != nil {
		return
	}
	var st HookStatus
	old, rerr := os.ReadFile(path)
	if rerr == nil {
		_ = json.Unmarshal(old, &st) // a damaged file is replaced
	}
	change(&st, now.UTC().Format(time.RFC3339))
	data, _ := json.MarshalIndent(st, "", "  ")
	data = append(data, '\n')
	if rerr == nil && bytes.Equal(data, old) {
		return // unchanged (the index-state note of every fresh prompt): no rewrite
	}
	// Best effort, no fsync: a crash loses at most the last run's record,
	// and two fsyncs were a large part of a served prompt's wait.
	_ = workspace.WriteFileBestEffort(runtime, path, data)
}

// RecordHook records one hook run in the status file: the last success,
// or the last failure with its event ("" when the input could not be
// read).
func RecordHook(stateDir string, now time.Time, event string, err error) {
	UpdateHookStatus(stateDir, now, func(st *HookStatus, now string) {
		if err == nil {
			st.LastSuccessAt, st.LastEvent = now, event
		} else {
			ee := errcode.As(err)
			st.LastFailure = &HookFailure{Code: ee.Code, Message: ee.Message, At: now, Event: event}
		}
	})
}
