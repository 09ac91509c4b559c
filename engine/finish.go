package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"scriptorium/engine/records"
)

// A post-commit finish step: work a service owes after its install that
// lies outside the workspace files (forget's scrub of state.db, sessions.db,
// the index, the vector cache and runtime files). The install records the
// step with its history row (Change.Finish, through the journal, so a
// crash replays it); the service runs it at once, and whoever comes next
// runs what a crash left owed: Open (recover), any taking of the write
// lock, and a long-lived engine before it reads. The core knows only the
// service's name and an opaque payload (ids and hashes, never the text).

// Finish is the finish step an install owes.
type Finish struct {
	Service string          `json:"service"`
	Payload json.RawMessage `json:"payload"`
}

// Finisher runs a service's owed finish steps, under the write lock. Each
// must be idempotent: a crash may interrupt it and recovery run it again.
type Finisher func(ctx context.Context, tx *Tx, rev int64, payload []byte) error

var finishers = struct {
	sync.RWMutex
	m map[string]Finisher
}{m: map[string]Finisher{}}

// RegisterFinisher registers the finisher of a service (at init): every
// engine of the process runs it for that service's owed steps. A step of
// a service this program does not link stays owed, and the workspace
// still opens.
func RegisterFinisher(service string, f Finisher) {
	finishers.Lock()
	defer finishers.Unlock()
	finishers.m[service] = f
}

func registered() []string {
	finishers.RLock()
	defer finishers.RUnlock()
	out := make([]string, 0, len(finishers.m))
	for n := range finishers.m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// recordHistory writes an install's history row and its owed finish
// step. Both are idempotent, so recovery may replay them.
func (e *Engine) recordHistory(ctx context.Context, h records.History, f *Finish) error {
	if f == nil {
		return e.rec.AddInstall(ctx, h, nil)
	}
	return e.rec.AddInstall(ctx, h, &records.Finish{Service: f.Service, Payload: string(f.Payload)})
}

// finishesOwed reports whether a registered service owes a finish step.
func (e *Engine) finishesOwed() bool { return e.rec.FinishesOwed(registered()) }

// RunFinishes runs every owed finish step of a registered service, oldest
// first, marking each done when its finisher succeeds. A service calls it
// right after its install; the core calls it after a crash.
func (tx *Tx) RunFinishes(ctx context.Context) error {
	e := tx.e
	owed, err := e.rec.OwedFinishes(ctx)
	if err != nil {
		return err
	}
	for _, s := range owed {
		finishers.RLock()
		f := finishers.m[s.Service]
		finishers.RUnlock()
		if f == nil {
			continue
		}
		if err := f(ctx, tx, s.Revision, []byte(s.Payload)); err != nil {
			return fmt.Errorf("finish the %s of revision %d: %w", s.Service, s.Revision, err)
		}
		if err := e.rec.FinishDone(ctx, s.Revision, s.Service); err != nil {
			return err
		}
	}
	return nil
}

// finishTry is how long a read waits for the write lock to run owed
// steps: a service still running holds it and finishes its own, so a read
// never waits for it.
const finishTry = 50 * time.Millisecond

// finishOwed runs the owed steps before a long-lived engine (serve,
// daemon, mcp, the TUI: opened before a crash, it never opens again)
// reads, unless this engine holds the write lock (taking it ran them) or
// another process does (a service still running).
func (e *Engine) finishOwed(ctx context.Context) {
	if !e.opts.LongLived || e.locks.Load() > 0 || time.Now().UnixNano() < e.finishRetry.Load() || !e.finishesOwed() {
		return
	}
	tctx, cancel := context.WithTimeout(ctx, finishTry)
	release, err := e.lock(tctx, true) // taking the lock runs them
	cancel()
	if err == nil {
		release()
	}
}

// finishLocked runs under a freshly taken write lock: what a crash left
// owed is finished before anything builds on the workspace. A failure is
// retried at the next lock or open, as recover does.
func (e *Engine) finishLocked(ctx context.Context) {
	if !e.finishesOwed() {
		return
	}
	// Not bounded by how long the caller would wait for the lock.
	if err := (&Tx{e: e}).RunFinishes(context.WithoutCancel(ctx)); err != nil {
		// Reads leave a failing step alone for a while: each attempt may
		// rebuild the index, and a search must not pay that every time.
		e.finishRetry.Store(time.Now().Add(finishBackoff).UnixNano())
		return
	}
	e.finishRetry.Store(0)
}

// finishBackoff is how long a long-lived engine's reads wait before they
// try a failed finish step again; writers try at every lock.
const finishBackoff = 30 * time.Second
