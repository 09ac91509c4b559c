package result

import "scriptorium/errcode"

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
