package result

import "scriptorium/engine/result/prompt"

// HookStatus is what the hook recorded about its last runs (defined in
// engine/result/prompt, which the small hook client links).
type HookStatus = prompt.HookStatus

// HookFailure is the last failure the hook recorded.
type HookFailure = prompt.HookFailure
