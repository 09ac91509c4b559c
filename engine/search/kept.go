package search

import (
	"sync"

	"scriptorium/engine/index"
	"scriptorium/workspace/manifest"
)

// A cold recall asks two things of the index in turn: the hits of its
// query (searchFromFiles) and the trusted blocks of core.md and the hit
// files (RecallFiles). Both need a stat walk of the workspace, the
// promotions, and a read-only open of the index found to describe that
// walk: done twice, that was half the trust lookup's cost (issue 26's
// profile: 11-13% of a cold recall). So a cold search that answered from a
// fresh index keeps what it found (kept) for the lookup that follows.
//
// The handle holds the index's shared lock, so it is let go as soon as
// anything else is asked of this engine's index (the next search, any
// writable open, Engine.Close): a writer in this process never waits on it,
// and one in another process waits at most for the rest of this recall, as
// for a search in flight. A long-lived engine never keeps one.

// freshRead is one walk found fresh: the signatures it saw, the index that
// describes them (open), and the hit files already read for that version.
type freshRead struct {
	listed map[string]manifest.Sig
	ix     *index.Index
	hits   *hitFiles
}

type kept struct {
	mu sync.Mutex
	r  *freshRead
}

// keep replaces what is kept with r.
func (k *kept) keep(r *freshRead) {
	k.mu.Lock()
	old := k.r
	k.r = r
	k.mu.Unlock()
	old.close()
}

// take hands what is kept over to the caller, who closes it; nil if none.
func (k *kept) take() *freshRead {
	k.mu.Lock()
	defer k.mu.Unlock()
	r := k.r
	k.r = nil
	return r
}

// drop closes what is kept.
func (k *kept) drop() { k.take().close() }

func (r *freshRead) close() {
	if r != nil {
		_ = r.ix.Close()
	}
}
