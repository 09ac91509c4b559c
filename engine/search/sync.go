package search

import (
	"context"
	"errors"
	"sort"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// The search index is a cache of topics/ and sources/: it is opened for one
// operation and closed again (bleve holds an exclusive lock, and the TUI and
// a CLI search must be able to take turns) — but for an install's handle,
// kept until someone else asks for the index (hold.go) — brought up to date from the
// files when it is missing, broken, of another format or stale, and
// otherwise updated incrementally after every install (Installed).

// openIndex opens the index for writing, waiting up to a second for
// another handle, or takes the handle an install kept (hold.go). done
// ends the use: an install (keep) keeps the handle for the next one; any
// other use leaves a kept handle kept and closes one it opened.
func (st *state) openIndex() (ix *index.Index, done func(keep bool), err error) {
	// A writable handle needs every reader gone: ours now, the others'
	// within a poll (reader.go).
	st.reader.close()
	st.kept.drop()
	if ix := st.hold.take(st.dir); ix != nil {
		return ix, func(bool) { st.hold.release(false) }, nil
	}
	announceWrite(st.dir)
	ix, err = openWaiting(st.dir, index.Options{LockTimeout: time.Second}, announceWrite)
	if errors.Is(err, index.ErrLocked) {
		st.hold.release(true)
		return nil, nil, &errcode.Error{Code: errcode.LockBusy, Message: "the search index is in use by another process; try again", Err: err}
	}
	if err != nil {
		st.hold.release(true)
		// The index names the operation and its directory ("open index
		// /x/.scriptorium/index: …"); another prefix would only repeat it.
		return nil, nil, &errcode.Error{Code: errcode.IO, Message: err.Error(), Err: err}
	}
	st.hold.keep(st.dir, ix)
	return ix, func(keep bool) { st.hold.release(!keep) }, nil
}

// openShared opens the index for reading beside other readers, first
// letting go of this engine's writable handle and asking another
// process's to let go (hold.go).
func (st *state) openShared(wait time.Duration) (*index.Index, error) {
	st.hold.drop()
	return openWaiting(st.dir, index.Options{ReadOnly: true, LockTimeout: wait}, announceRead)
}

// openReadOnly opens the index for reading beside other readers; it fails
// (ErrUnavailable) where only a writable open could repair the index.
func (st *state) openReadOnly() (*index.Index, error) { return st.openShared(time.Second) }

// syncIndex makes the index match c: a resync of what changed, a rebuild
// when that cannot be done, nothing when it is fresh. It returns whether
// it rebuilt.
func (st *state) syncIndex(ctx context.Context, ix *index.Index, c engine.Corpus) (bool, error) {
	fp := c.Fingerprint()
	if _, err := ix.Meta(index.FingerprintKey); err != nil && !errors.Is(err, index.ErrCorrupt) {
		return false, errcode.Wrap(errcode.IO, err, "read search index")
	}
	// A damaged index has marked itself for a rebuild: the rebuild below is
	// its repair.
	if ix.Describes(fp, c.Content) {
		return false, nil
	}
	if n, ok, err := st.resyncIndex(ctx, ix, c); ok || err != nil {
		st.resynced.Add(int64(n))
		return false, err
	}
	if stale(ctx, ix) {
		return false, errSyncCutShort
	}
	if err := st.rebuild(ctx, ix, c, "search index"); err != nil { // "search index: rebuild: …"
		return false, err
	}
	recordIndexFiles(ix, c)
	return true, nil
}

// rebuild replaces the documents of ix with c's, then records c's meta;
// what names the operation in an error. A caller that is gone (ctx
// cancelled: a signal, a closed request) stops it at the next document,
// the build beside the index removed and the index as it was: a first
// build at 1M records ran on for 25 minutes after a SIGTERM. A deadline
// does not stop it: only a sync with an index to answer from is cut short
// (stale).
func (st *state) rebuild(ctx context.Context, ix *index.Index, c engine.Corpus, what string) error {
	err := ix.RebuildFrom(func(yield func(*index.Doc) error) error {
		return eachDoc(c, func(d *index.Doc) error {
			if err := ctx.Err(); errors.Is(err, context.Canceled) {
				return err
			}
			return yield(d)
		})
	})
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "%s", what)
	}
	st.rebuilds.Add(1)
	if err := ix.ApplyWithMeta(nil, nil, c.Meta(time.Now())); err != nil {
		return errcode.Wrap(errcode.IO, err, "%s", what)
	}
	return nil
}

// Installed implements engine.Searcher: it applies the difference
// between two snapshots to the index in one batch. An index that was not
// fresh before the change is brought up to date instead. Failures leave
// the index stale, and the next search repairs it.
func (service) Installed(ctx context.Context, e *engine.Engine, before *engine.Corpus, after engine.Corpus) {
	st := stateOf(e)
	ix, done, err := st.openIndex()
	if err != nil {
		return
	}
	defer done(true)
	if before == nil || !ix.Describes(before.Fingerprint(), before.Content) {
		_, _ = st.syncIndex(ctx, ix, after)
		return
	}
	old, cur := IndexChanges(*before, after)
	var upserts []index.Doc
	var deletes []string
	for id, d := range cur {
		if o, ok := old[id]; !ok || o != d {
			upserts = append(upserts, d)
		}
	}
	for id := range old {
		if _, ok := cur[id]; !ok {
			deletes = append(deletes, id)
		}
	}
	sortDocs(upserts)
	sort.Strings(deletes)
	if ix.ApplyWithMeta(upserts, deletes, after.Meta(time.Now())) == nil {
		recordIndexFiles(ix, after)
	}
}

// Rebuild implements engine.Searcher: the whole index replaced with a
// fresh build (forget's finish step: a deleted document's terms would
// otherwise stay in its old segments).
func (service) Rebuild(ctx context.Context, e *engine.Engine, c engine.Corpus) error {
	st := stateOf(e)
	ix, done, err := st.openIndex()
	if err != nil {
		return err
	}
	defer done(false)
	return st.rebuild(ctx, ix, c, "rebuild search index")
}

// IndexState implements engine.Searcher: fresh when the index describes
// the files whose fingerprint is fp.
func (service) IndexState(e *engine.Engine, fp string, content func(string) ([]byte, bool)) result.IndexState {
	st := result.IndexState{Format: index.FormatVersion}
	// A writable open: it is the one that finds damage a reader would not
	// (bolt reads its freelist only for writing), so fresh means usable.
	ix, done, err := stateOf(e).openIndex()
	if err != nil {
		return st
	}
	defer done(false)
	if n, err := ix.Count(); err == nil {
		st.Documents = n
	}
	st.Fresh = ix.Describes(fp, content)
	return st
}

// searchIndex runs a checked query on an index brought up to date with c.
// A damaged index (ErrCorrupt: bleve panicked or read garbage) has marked
// itself for a rebuild; it is rebuilt from c at once and asked again, so
// one damaged cache costs one slow search, not every search after it. A
// sync that ctx ends leaves the index as far as it got, and the answer
// comes from the index as it stands (stale.go).
func (st *state) searchIndex(ctx context.Context, e *engine.Engine, c engine.Corpus, iq index.Query) ([]index.Hit, error) {
	if e.Options().LongLived {
		// Anything but a clean answer goes the writable way, which repairs
		// and reports.
		if hits, ok, err := st.searchHeld(c, iq); ok && err == nil {
			return hits, nil
		}
	}
	ix, done, err := st.openIndex()
	if lockBusy(err) {
		if hits, ok := st.searchStale(ctx, c, iq); ok {
			return hits, nil
		}
	}
	if err != nil {
		return nil, err
	}
	defer done(false)
	for attempt := 1; ; attempt++ {
		_, err := st.syncIndex(ctx, ix, c)
		if errors.Is(err, errSyncCutShort) {
			return st.searchAsItStands(ix, c, iq)
		}
		if err != nil {
			return nil, err
		}
		hits, err := ix.Search(iq)
		switch {
		case err == nil:
			return hits, nil
		case errors.Is(err, index.ErrCorrupt) && attempt == 1:
			continue
		case errors.Is(err, index.ErrCorrupt):
			return nil, &errcode.Error{Code: errcode.IO, Err: err,
				Message: "the search index is damaged and rebuilding it did not help: " + err.Error()}
		case errors.Is(err, index.ErrClosed):
			return nil, errcode.Wrap(errcode.IO, err, "search")
		}
		// checkQuery has already refused every malformed query the index
		// knows of, so this is the index refusing one it could not parse.
		return nil, &errcode.Error{Code: errcode.InvalidArgument, Message: err.Error(), Err: err}
	}
}
