package engine

import (
	"context"
	"time"
)

// A forget killed after its install leaves its clean-up owed (the ledger
// row's done = 0). A one-shot open finishes it in recover; a long-lived
// engine (serve, daemon, mcp, the TUI) opened before the kill never opens
// again, so it finishes it itself: when it next takes the write lock
// (lock), and before it next reads the workspace (snapshot), so it never
// serves a search from an index or state.db that still holds the text.

// finishTry is how long a read waits for the write lock to finish an owed
// forget: a forget that is still running holds the lock and finishes its
// own clean-up, so a read never waits for it.
const finishTry = 50 * time.Millisecond

// finishOwed finishes the owed forgets before a long-lived engine reads,
// unless this engine holds the write lock (the holder finished them when
// it took it) or another process does (a running forget).
func (e *Engine) finishOwed(ctx context.Context) {
	if !e.opts.LongLived || e.locks.Load() > 0 || !e.forgetUnfinished() {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, finishTry)
	release, err := e.lock(tctx, true) // taking the lock finishes them
	cancel()
	if err == nil {
		release()
	}
}

// finishLocked runs under a freshly taken write lock: what a killed
// forget left owed is finished before anything builds on the workspace.
// A failure is retried at the next lock or open, as recover does.
func (e *Engine) finishLocked(ctx context.Context) {
	if e.forgetUnfinished() {
		// Not bounded by how long the caller would wait for the lock.
		_ = e.finishForgets(context.WithoutCancel(ctx))
	}
}
