package writer

import (
	"context"

	"scriptorium/engine/sessions"
)

// A forced write over many small sessions used to pay one install — about
// forty fsyncs, the index batch and the derived views — per session. The
// offline writer distils each session of a batch on its own, so its output
// does not depend on how whole sessions are grouped into batches, and a
// forced offline run groups whole sessions into one install up to
// WriteThreshold tokens. A group is one transaction: a writer killed
// before its markers are set finds the group's turns archived and cited on
// the rerun and only marks them, so the rerun ends byte-identical. A
// session that needs more than one batch, or that fails as part of a
// group, is written on its own, as without grouping, so
// failures stay per session. A network model keeps one call per session:
// there the call, not the install, is the cost, and the prompt stays one
// conversation.

// grouper collects the sessions of one run into groups.
type grouper struct {
	w       *writer
	ctx     context.Context
	store   *sessions.Store
	on      bool                            // grouping applies to this run
	single  func(sessions.SessionKey) error // writes one session on its own
	group   []groupItem
	tokens  int
	batches int // batches written by groups, counted per session as before
}

// groupItem is one session's whole pending work.
type groupItem struct {
	key               sessions.SessionKey
	batch, quarantine []sessions.Node
	mark              []sessions.Key
	tokens            int
}

func (w *writer) newGrouper(ctx context.Context, store *sessions.Store, force bool, single func(sessions.SessionKey) error) *grouper {
	g := &grouper{w: w, ctx: ctx, store: store, single: single}
	if force && !w.e.Config().Writer.Proposes() {
		m, err := w.modelFor("")
		g.on = err == nil && m == nil
	}
	return g
}

// add writes session k, or keeps it for the current group.
func (g *grouper) add(k sessions.SessionKey) error {
	if !g.on {
		return g.single(k)
	}
	it, ok, err := g.whole(k)
	if err != nil || !ok {
		if err := g.flush(); err != nil {
			return err
		}
		return g.single(k)
	}
	if len(g.group) > 0 && g.tokens+it.tokens > WriteThreshold {
		if err := g.flush(); err != nil {
			return err
		}
	}
	g.group = append(g.group, it)
	g.tokens += it.tokens
	return nil
}

// whole reads session k's pending work (every branch); ok is false unless
// its pending turns make a single batch.
func (g *grouper) whole(k sessions.SessionKey) (groupItem, bool, error) {
	turns, err := g.store.PendingSessionTurns(k, g.w.e.WorkspaceID())
	if err != nil {
		return groupItem{}, false, err
	}
	batch, quarantine, _, tokens := splitBatchTokens(turns, true)
	mark := markable(turns, batch)
	if len(mark) != len(turns) {
		return groupItem{}, false, nil // more than one batch
	}
	return groupItem{key: k, batch: batch, quarantine: quarantine, mark: mark, tokens: tokens}, true, nil
}

// flush writes the current group in one install. If that fails, each of
// its sessions is written on its own, so a failure is the session's.
func (g *grouper) flush() error {
	group := g.group
	g.group, g.tokens = nil, 0
	if len(group) == 0 {
		return nil
	}
	var batch, quarantine []sessions.Node
	var mark []sessions.Key
	for _, it := range group {
		batch = append(batch, it.batch...)
		quarantine = append(quarantine, it.quarantine...)
		mark = append(mark, it.mark...)
	}
	if len(mark) == 0 { // nothing owed by any of them
		for _, it := range group {
			g.w.written = append(g.w.written, it.key)
		}
		return nil
	}
	if err := g.w.writeBatch(g.ctx, g.store, batch, quarantine, mark); err != nil {
		if g.ctx.Err() != nil {
			return err
		}
		for _, it := range group {
			if err := g.single(it.key); err != nil {
				return err
			}
		}
		return nil
	}
	for _, it := range group {
		if len(it.batch) > 0 {
			g.batches++
		}
		g.w.written = append(g.w.written, it.key)
	}
	return nil
}
