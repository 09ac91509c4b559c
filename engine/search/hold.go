package search

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"time"

	"scriptorium/engine/index"
)

// Opening the index for writing costs an install at 100k records more
// than the update itself (writer26b's profile: the largest single part of
// the index update). So the writable handle an install used is kept
// (writeHold) for the next install of the same run — a `write` of many
// batches, a TUI's edits in a row — and let go as soon as anyone else
// wants the index:
//
//   - another process that cannot get the index's lock touches an intent
//     file (read.intent for a reader, write.intent for a writer) while it
//     waits (openWaiting); the holder polls both every readerPoll and
//     closes its handle when either moves, so a reader waits a poll plus
//     an update in flight, as it waits for an install today;
//   - a search or open in this process lets go of it first (drop);
//   - it is closed after holdIdle without an install, and by Engine.Close.
//
// Readers never see a half-applied install: every install is one bleve
// batch, committed before the handle is idle, whether it is kept or not.

// readIntentFile is the read-intent file in the index directory.
const readIntentFile = "read.intent"

// holdIdle is how long a kept writable handle survives without an
// install (a var: tests lengthen it).
var holdIdle = 2 * time.Second

// announceEvery is how often a waiting open touches its intent file again,
// in case a holder reopened after the last touch and took it as seen.
const announceEvery = 100 * time.Millisecond

type writeHold struct {
	mu      sync.Mutex // held while the handle is in use and while it is closed
	ix      *index.Index
	intents [2]time.Time // read.intent's and write.intent's mtimes when ix was taken
	used    time.Time    // the last release
	stop    chan struct{}
	opens   int64 // writable opens, for tests
}

// intentTimes are the mtimes of the index's two intent files.
func intentTimes(dir string) [2]time.Time {
	return [2]time.Time{fileTime(filepath.Join(dir, readIntentFile)), intentTime(dir)}
}

func fileTime(p string) time.Time {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// touchFile sets p's mtime to now, creating it (and dir) if needed.
func touchFile(dir, p string) {
	now := time.Now()
	if err := os.Chtimes(p, now, now); errors.Is(err, os.ErrNotExist) {
		if os.MkdirAll(dir, 0o700) == nil {
			_ = os.WriteFile(p, nil, 0o600)
		}
	}
}

// announceRead asks a process holding the index for writing to let go.
func announceRead(dir string) { touchFile(dir, filepath.Join(dir, readIntentFile)) }

// openWaiting opens the index in dir with opts, and when another process
// has its lock, announces itself every announceEvery until the lock is
// had or opts.LockTimeout (a second when zero) has passed.
func openWaiting(dir string, opts index.Options, announce func(string)) (*index.Index, error) {
	wait := opts.LockTimeout
	if wait == 0 {
		wait = time.Second
	}
	try := opts
	try.LockTimeout = -1
	ix, err := index.OpenWith(dir, try)
	if !errors.Is(err, index.ErrLocked) {
		return ix, err
	}
	deadline := time.Now().Add(wait)
	for {
		announce(dir)
		step := min(announceEvery, time.Until(deadline))
		if step <= 0 {
			return nil, err
		}
		try.LockTimeout = step
		ix, err = index.OpenWith(dir, try)
		if !errors.Is(err, index.ErrLocked) {
			return ix, err
		}
	}
}

// take returns the kept handle, locked for the caller until release, or
// nil (h.mu still locked) when there is none to reuse: the caller opens
// one and hands it to keep or closes it.
func (h *writeHold) take(dir string) *index.Index {
	h.mu.Lock()
	if h.ix != nil && intentTimes(dir) != h.intents {
		h.closeLocked()
	}
	return h.ix
}

// keep makes ix the kept handle (opened by the caller of take, h.mu held)
// and starts watching for others who want the index.
func (h *writeHold) keep(dir string, ix *index.Index) {
	h.opens++
	h.ix, h.intents, h.stop = ix, intentTimes(dir), make(chan struct{})
	go h.poll(dir, h.stop)
}

// release ends the caller's use of the kept handle, closing it first
// when close is set.
func (h *writeHold) release(close bool) {
	if close {
		h.closeLocked()
	}
	h.used = time.Now()
	h.mu.Unlock()
}

func (h *writeHold) closeLocked() {
	if h.ix == nil {
		return
	}
	_ = h.ix.Close()
	h.ix = nil
	close(h.stop)
}

// drop closes the kept handle, waiting for an install using it.
func (h *writeHold) drop() {
	h.mu.Lock()
	h.closeLocked()
	h.mu.Unlock()
}

// poll closes the kept handle when someone announces they want the
// index, or when it has been idle for holdIdle.
func (h *writeHold) poll(dir string, stop chan struct{}) {
	t := time.NewTicker(readerPoll)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if !h.mu.TryLock() {
				continue // in use: looked at again after the install
			}
			if h.ix != nil && h.stop == stop &&
				(intentTimes(dir) != h.intents || time.Since(h.used) > holdIdle) {
				h.closeLocked()
			}
			h.mu.Unlock()
		}
	}
}
