package search

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/filewatch"
	"scriptorium/engine/index"
)

// A long-lived engine (Options.LongLived) answers searches from a
// read-only index handle it keeps open, instead of opening the index for
// every search. Read-only handles share the index's lock, so a CLI search
// in another process runs beside it. A writable open, in this process or
// any other, first touches the index's write-intent file; every reader
// polls it and closes its handle when it moves, so writers wait at most a
// poll interval plus a search in flight, never for an idle reader. A
// read-only handle sees the index as it was when opened: one that no
// longer describes the files is closed and the writable path brings the
// index up to date.

// intentFile is the write-intent file in the index directory.
const intentFile = "write.intent"

// readerPoll is how often a held reader looks at the write intent.
const readerPoll = 50 * time.Millisecond

type indexReader struct {
	mu       sync.Mutex
	ix       *index.Index
	verified verifiedKey   // what ix was last found to describe
	intent   time.Time     // the intent's mtime when ix was opened
	stop     chan struct{} // closes the poller
	looks    atomic.Int64  // the poller's looks at the intent, for tests
}

func intentPath(dir string) string { return filepath.Join(dir, intentFile) }

// intentTime is the write intent's mtime (zero if there is none).
func intentTime(dir string) time.Time {
	fi, err := os.Stat(intentPath(dir))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// announceWrite asks every reader of the index in dir to let go.
func announceWrite(dir string) { touchFile(dir, intentPath(dir)) }

// verifiedKey is a snapshot, its fingerprint and the index's racy record
// that were found to agree.
type verifiedKey struct {
	c        engine.Corpus
	fp, racy string
}

// closeLocked closes the held handle; r.mu is held.
func (r *indexReader) closeLocked() {
	r.verified = verifiedKey{}
	if r.ix == nil {
		return
	}
	_ = r.ix.Close()
	r.ix = nil
	close(r.stop)
}

func (r *indexReader) close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closeLocked()
}

// poll closes the handle when a writer announces itself. It waits on the
// OS's events for the intent file, so an idle reader wakes for nothing
// (a ticker of readerPoll cost a resident serve ~10 ms CPU a second in
// its wakes and the runtime's around them); only where the directory
// cannot be watched does it look every readerPoll.
func (r *indexReader) poll(dir string, stop chan struct{}) {
	changed, unwatch, err := filewatch.Watch(dir, intentFile)
	var tick <-chan time.Time
	if err != nil {
		t := time.NewTicker(readerPoll)
		defer t.Stop()
		tick = t.C
	} else {
		defer unwatch()
	}
	// A touch between the open and the watch is seen by this first look.
	for look := true; ; look = false {
		if !look {
			select {
			case <-stop:
				return
			case <-changed:
			case <-tick:
			}
		}
		r.looks.Add(1)
		r.mu.Lock()
		if r.ix != nil && r.stop == stop && !intentTime(dir).Equal(r.intent) {
			r.closeLocked()
		}
		r.mu.Unlock()
	}
}

// searchHeld runs a query on the held read-only handle, opening it if
// needed. ok is false when the handle cannot be had or does not describe
// the files whose fingerprint is fp: the caller takes the writable path.
func (st *state) searchHeld(c engine.Corpus, iq index.Query) (hits []index.Hit, ok bool, err error) {
	fp := c.Fingerprint()
	r := &st.reader
	dir := st.dir
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ix != nil && !intentTime(dir).Equal(r.intent) {
		r.closeLocked()
	}
	if r.ix == nil {
		intent := intentTime(dir)
		ix, err := st.openShared(time.Second)
		if err != nil {
			return nil, false, nil
		}
		r.ix, r.intent, r.stop = ix, intent, make(chan struct{})
		go r.poll(dir, r.stop)
	}
	// The racy files' hashes are checked once per snapshot and record:
	// while neither changes, the answer cannot (a re-read racy file makes
	// a new snapshot).
	racy, _ := r.ix.Meta(index.RacyKey)
	if key := (verifiedKey{c, fp, racy}); r.verified != key {
		if !r.ix.Describes(fp, c.Content) {
			r.closeLocked()
			return nil, false, nil
		}
		r.verified = key
	}
	hits, err = r.ix.Search(iq)
	if errors.Is(err, index.ErrCorrupt) {
		r.closeLocked() // the writable path rebuilds it
		return nil, false, nil
	}
	return hits, true, err
}
