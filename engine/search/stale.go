package search

import (
	"context"
	"errors"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/errcode"
)

// A search must not fail because another process has the index to itself
// for a while (issue 24 §4: with serve rebuilding, a CLI search failed
// LOCK_BUSY). When the index cannot be opened for writing, and so cannot
// be brought up to date now, the search reads the index as it stands, the
// last one built, and keeps only the hits the files still hold as they
// were indexed (holds, docs.go): a document of a file changed since,
// a block that lost its trust, a record no longer preferred or visible
// are dropped, so a stale index can miss what changed but never show what
// is gone or pending.

// stale reports whether a sync that needs a full rebuild should leave the
// index as it stands: the caller has a deadline (the prompt hook), which a
// rebuild of a large workspace outlasts and would then throw away, and
// the index has documents to answer from. A caller with no deadline (the
// CLI, serve, the daemon) rebuilds.
func stale(ctx context.Context, ix *index.Index) bool {
	if _, budgeted := ctx.Deadline(); !budgeted || ix.NeedsRebuild() {
		return false
	}
	n, err := ix.Count()
	return err == nil && n > 0
}

// searchAsItStands answers iq from a writable handle whose sync was cut
// short, with the same check as searchStale.
func (st *state) searchAsItStands(ix *index.Index, c engine.Corpus, iq index.Query) ([]index.Hit, error) {
	all, err := ix.Search(iq)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "search")
	}
	return st.held(c, all), nil
}

// held keeps the hits c still holds, counting a stale answer.
func (st *state) held(c engine.Corpus, all []index.Hit) []index.Hit {
	var hits []index.Hit
	for _, h := range all {
		if holds(c, h) {
			hits = append(hits, h)
		}
	}
	st.stale.Add(1)
	return hits
}

// staleWait is how long a search with no deadline waits for a read-only
// handle while another process has the index for writing (a full rebuild
// of a large workspace takes seconds): waiting is better than failing.
var staleWait = 30 * time.Second // a var: tests shorten it

// searchStale answers iq from the index as it stands; ok is false when
// not even a read-only handle can be had before ctx's deadline (or
// staleWait).
func (st *state) searchStale(ctx context.Context, c engine.Corpus, iq index.Query) (hits []index.Hit, ok bool) {
	wait := staleWait
	if d, budgeted := ctx.Deadline(); budgeted {
		wait = time.Until(d) - 100*time.Millisecond
	}
	if wait <= 0 {
		return nil, false
	}
	ix, err := st.openShared(wait)
	if err != nil {
		return nil, false
	}
	defer ix.Close()
	all, err := ix.Search(iq)
	if err != nil {
		return nil, false
	}
	return st.held(c, all), true
}

// lockBusy reports whether err is the index held by another process.
func lockBusy(err error) bool {
	var ee *errcode.Error
	return errors.As(err, &ee) && ee.Code == errcode.LockBusy
}
