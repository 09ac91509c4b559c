package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// LockMode says how long Lock may wait for the write lock (SPEC §6).
type LockMode int

const (
	// LockBackground is for writers nobody is watching (write, backfill,
	// the idle watcher, the nightly pass): wait at most BackgroundLockWait,
	// then give up with ErrLockBusy and try again on the next round.
	LockBackground LockMode = iota
	// LockInteractive is for writers a user is watching (update, promote,
	// sleep): wait until the context is done, reporting the wait through
	// Options.OnLockWait.
	LockInteractive
)

// String returns "background" or "interactive".
func (m LockMode) String() string {
	switch m {
	case LockBackground:
		return "background"
	case LockInteractive:
		return "interactive"
	}
	return "LockMode(" + strconv.Itoa(int(m)) + ")"
}

// BackgroundLockWait is how long a LockBackground acquisition waits.
const BackgroundLockWait = time.Second

// lockRetry is the polling interval while the lock is held by another
// process; flock(2) offers no cancellable blocking wait.
const lockRetry = 20 * time.Millisecond

type purposeKey struct{}

// WithLockPurpose returns a context that makes Lock describe the holder with
// purpose as well (e.g. "promote"), so the lock-holder file can read
// "pid 4242 tui (promote)".
func WithLockPurpose(ctx context.Context, purpose string) context.Context {
	return context.WithValue(ctx, purposeKey{}, purpose)
}

// Lock acquires the workspace write lock, .scriptorium/write.lock, which
// serialises every writer across goroutines and processes. The returned
// release function gives it back; calling it more than once is harmless.
// An unknown mode is treated as LockBackground.
//
// When the wait ends without the lock, the error matches ErrLockBusy (and
// the context's error when the caller's context ended it). While held, the
// lock-holder file in the runtime directory says who holds it.
func (w *Workspace) Lock(ctx context.Context, mode LockMode) (release func(), err error) {
	parent := ctx
	if mode != LockInteractive {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, BackgroundLockWait)
		defer cancel()
	}
	if ctx.Err() != nil {
		return nil, w.busy(parent, mode)
	}
	notified := false
	notify := func() {
		if mode == LockInteractive && !notified && w.onLockWait != nil {
			notified = true
			w.onLockWait()
		}
	}

	select {
	case w.sem <- struct{}{}:
	default:
		notify()
		select {
		case w.sem <- struct{}{}:
		case <-ctx.Done():
			return nil, w.busy(parent, mode)
		}
	}

	ok, err := w.fl.TryLock()
	if err == nil && !ok {
		notify()
		ok, err = w.fl.TryLockContext(ctx, lockRetry)
	}
	if !ok {
		<-w.sem
		if err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("write lock %s: %w", w.fl.Path(), err)
		}
		return nil, w.busy(parent, mode)
	}

	w.writeHolder(ctx)
	var once sync.Once
	return func() {
		once.Do(func() {
			// The holder file goes first, while the lock still protects it
			// from the next holder's write.
			_ = w.ops.Remove(w.holderPath())
			_ = w.fl.Unlock()
			<-w.sem
		})
	}, nil
}

// busy builds the ErrLockBusy error, naming the holder when known. The
// caller's context error is wrapped too when it is what ended the wait.
func (w *Workspace) busy(parent context.Context, mode LockMode) error {
	msg := "write lock " + w.fl.Path()
	if h, ok := w.LockHolder(); ok {
		msg += " held by " + h
	}
	if err := parent.Err(); err != nil {
		return fmt.Errorf("%s: %w (%w)", msg, ErrLockBusy, err)
	}
	if mode != LockInteractive {
		msg += fmt.Sprintf(" (gave up after %s)", BackgroundLockWait)
	}
	return fmt.Errorf("%s: %w", msg, ErrLockBusy)
}

func (w *Workspace) holderPath() string { return w.metaPath(runtimeName, lockHolderName) }

// writeHolder records "pid N holder (purpose)" for LockHolder. It is best
// effort: the lock works without it, so errors are ignored and nothing is
// fsynced.
func (w *Workspace) writeHolder(ctx context.Context) {
	desc := "pid " + strconv.Itoa(os.Getpid()) + " " + w.holder
	if p, _ := ctx.Value(purposeKey{}).(string); p != "" {
		desc += " (" + p + ")"
	}
	desc += " since " + time.Now().UTC().Format(time.RFC3339)
	_ = writeFileAtomic(w.ops, w.RuntimeDir(), w.holderPath(), []byte(desc+"\n"), false)
}

// LockHolder reports who holds the write lock, e.g. "pid 4242 update", for
// the status pane. ok is false when nobody is known to hold it. It reads
// the best-effort lock-holder file, so it can miss a holder that is just
// acquiring or releasing the lock.
func (w *Workspace) LockHolder() (holder string, ok bool) {
	return ReadLockHolder(w.root)
}

// ReadLockHolder is LockHolder for a workspace that is not open yet, for
// example from an OnLockWait callback while Open waits. A record left by a
// process that died holding the lock is ignored.
func ReadLockHolder(memoryDir string) (holder string, ok bool) {
	data, err := os.ReadFile(lockHolderPath(memoryDir))
	if err != nil {
		return "", false
	}
	s := strings.TrimSpace(string(data))
	fields := strings.Fields(s)
	if len(fields) < 2 || fields[0] != "pid" {
		return "", false
	}
	pid, err := strconv.Atoi(fields[1])
	if err != nil || !pidAlive(pid) {
		return "", false
	}
	return s, true
}

func lockHolderPath(memoryDir string) string {
	return filepath.Join(memoryDir, MetaDir, runtimeName, lockHolderName)
}

// LockState reports whether the write lock is held right now and by whom,
// by probing the lock itself rather than trusting the best-effort holder
// file: a holder that has not written its record yet (or whose record was
// lost) still shows as held. The probe takes the lock for an instant when
// it is free, so it never reports a lock free that another process holds.
func (w *Workspace) LockState() (held bool, holder string) {
	holder, known := w.LockHolder()
	select {
	case w.sem <- struct{}{}:
		defer func() { <-w.sem }()
	default:
		// A goroutine of this process holds or is taking the lock.
		if !known {
			holder = "pid " + strconv.Itoa(os.Getpid()) + " " + w.holder + " (this process)"
		}
		return true, holder
	}
	probe := flock.New(w.metaPath(lockName), flock.SetPermissions(fileMode))
	ok, err := probe.TryLock()
	if err == nil && ok {
		_ = probe.Unlock()
		return false, ""
	}
	if !known {
		holder = "another process (it left no lock-holder record)"
	}
	return true, holder
}
