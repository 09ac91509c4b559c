package app

import (
	"os"
	"runtime/debug"

	"scriptorium/workspace/bulkread"
)

// oneShotMemoryLimit is the Go runtime's soft memory limit for a one-shot
// process (a CLI verb, a hook): issue 26 bounds every verb at 1M records
// by 1 GiB of peak RSS. Without it the collector lets the heap grow to
// twice what is live (GOGC=100), so a verb whose live heap is 0.8 GiB
// peaks near 1.6. With it the collector runs more often as the heap nears
// the limit, trading CPU for memory; a process that stays far below it
// (every verb at 100k) is unaffected. It bounds nothing when the live
// heap itself is over the limit: the runtime then caps the collector's
// CPU and lets the heap grow. The margin under 1 GiB is for what the
// runtime does not count: the executable's pages and SQLite's cache.
// Long-lived roles (serve, the daemon, the TUI, MCP) keep the default:
// a resident engine near the limit would spend its idle time collecting.
// GOMEMLIMIT in the environment wins.
const oneShotMemoryLimit = 896 << 20

// limitMemory sets the soft memory limit for a one-shot role, never
// raising a lower one.
func limitMemory(role Role) {
	if role != Verb && role != Hook {
		return
	}
	bulkread.Enable() // shared read buffers: kept for the process's life, as a one-shot's are
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if debug.SetMemoryLimit(-1) > oneShotMemoryLimit {
		debug.SetMemoryLimit(oneShotMemoryLimit)
	}
}
