package engine

import "context"

// updateIndex brings the search index up to date with the snapshot.
func (e *Engine) updateIndex(ctx context.Context, s *snapshot) {}

// indexState describes the search index.
func (e *Engine) indexState(ctx context.Context, s *snapshot) IndexState { return IndexState{} }

// pendingTurnCount counts turns the writer still owes, read-only.
func (e *Engine) pendingTurnCount(ctx context.Context) int { return 0 }
