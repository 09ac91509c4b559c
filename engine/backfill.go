package engine

import (
	"context"

	"scriptorium/render"
	"scriptorium/trust"
)

// BackfillResult is what Backfill did.
type BackfillResult struct {
	Batches int `json:"batches"`
	Sources int `json:"sources"`
}

// Backfill distils every trusted source that no topic cites, ignoring
// written markers and excluding pending sources, in batches of at most
// WriteThreshold tokens through the normal transaction. A failed batch
// installs nothing and stops the run; a rerun resumes at the first source
// still uncited, so backfill is idempotent.
func (e *Engine) Backfill(ctx context.Context) (BackfillResult, error) {
	var res BackfillResult
	if err := e.gate(trust.OpBackfill); err != nil {
		return res, err
	}
	tried := map[string]bool{} // a model may leave a source uncited: never loop on it
	for {
		release, err := e.lock(ctx, true)
		if err != nil {
			return res, err
		}
		n, err := e.backfillBatch(ctx, tried)
		release()
		if err != nil {
			return res, err
		}
		if n == 0 {
			return res, nil
		}
		res.Batches++
		res.Sources += n
	}
}

// backfillBatch distils the next batch of uncited trusted sources and
// returns how many it distilled (0 when nothing is left).
func (e *Engine) backfillBatch(ctx context.Context, tried map[string]bool) (int, error) {
	s, err := e.snapshot(ctx)
	if err != nil {
		return 0, err
	}
	cited := s.citedSources()
	var refs []string
	tokens := 0
collect:
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			v := src.view
			if cited[v.Ref] || tried[v.Ref] || src.pending() || s.sources[v.Ref] != src || blockSafe(v.Content) == "" {
				continue
			}
			cost := render.CountTokens(v.Content)
			if tokens+cost > WriteThreshold && len(refs) > 0 {
				break collect
			}
			tokens += cost
			refs = append(refs, v.Ref)
			tried[v.Ref] = true
		}
	}
	if len(refs) == 0 {
		return 0, nil
	}
	done, err := e.distillLocked(ctx, s, refs, "backfill")
	if err != nil {
		return 0, err
	}
	return len(done), nil
}
