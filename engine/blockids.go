package engine

// BlockIDTaken returns a lookup of the block ids of v's workspace. It
// answers from the engine's dependency index (depindex.go), brought to v
// on each call at the cost of what changed, instead of collecting every
// block id of every file: a writer batch allocates ids without a scan of
// the workspace (issue 14).
func (e *Engine) BlockIDTaken(v *View) func(id string) bool {
	return func(id string) bool {
		e.inc.mu.Lock()
		defer e.inc.mu.Unlock()
		e.inc.idx.sync(v.s)
		return len(e.inc.idx.Holding(id)) > 0
	}
}

// SourceCited returns a lookup of whether some topic footnote of v's
// workspace cites a source-id (View.CitedSources without collecting every
// citation of every file), from the dependency index as BlockIDTaken.
func (e *Engine) SourceCited(v *View) func(ref string) bool {
	return func(ref string) bool {
		e.inc.mu.Lock()
		defer e.inc.mu.Unlock()
		e.inc.idx.sync(v.s)
		return len(e.inc.idx.Citing(ref)) > 0
	}
}
