package writer

import (
	"context"

	"scriptorium/engine"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
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
func Backfill(ctx context.Context, e *engine.Engine) (BackfillResult, error) {
	var res BackfillResult
	if err := e.Authorize(trust.OpBackfill); err != nil {
		return res, err
	}
	w := newWriter(e)
	tried := map[string]bool{} // a model may leave a source uncited: never loop on it
	for {
		var n int
		err := e.Locked(ctx, true, func(tx *engine.Tx) error {
			var err error
			n, err = w.backfillBatch(ctx, tx, tried)
			return err
		})
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
func (w *writer) backfillBatch(ctx context.Context, tx *engine.Tx, tried map[string]bool) (int, error) {
	v, err := tx.View(ctx)
	if err != nil {
		return 0, err
	}
	cited := v.CitedSources()
	var refs []string
	tokens := 0
	for _, src := range v.Sources() {
		if cited[src.Ref] || tried[src.Ref] || src.Pending || topic.BlockSafe(src.Content) == "" {
			continue
		}
		cost := render.CountTokens(src.Content)
		if tokens+cost > WriteThreshold && len(refs) > 0 {
			break
		}
		tokens += cost
		refs = append(refs, src.Ref)
		tried[src.Ref] = true
	}
	if len(refs) == 0 {
		return 0, nil
	}
	done, err := w.distill(ctx, tx, v, refs, "backfill")
	if err != nil {
		return 0, err
	}
	return len(done), nil
}
