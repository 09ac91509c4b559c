package search

import (
	"context"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
)

// AdoptCopiedIndex makes the index of a byte-identical copy of a workspace
// describe the copy. A copy has new inodes and ctimes, so its signatures
// differ from the ones the index recorded although every byte is the same;
// benchmarks copy one warm workspace per iteration and must not pay a
// rebuild for that. For benchmarks only: nothing here checks that the copy
// is identical.
func AdoptCopiedIndex(ctx context.Context, e *engine.Engine) error {
	c, err := e.Corpus(ctx)
	if err != nil {
		return err
	}
	st := stateOf(e)
	ix, done, err := st.openIndex()
	if err != nil {
		return err
	}
	defer done(false)
	// Every file of a fresh copy is racy (just written), but its bytes are
	// the original's, which the index describes: record none as racy, as a
	// build long after the files were written would.
	meta := c.Meta(time.Now())
	meta[index.RacyKey] = `{"stamp":0,"files":{}}`
	if err := ix.ApplyWithMeta(nil, nil, meta); err != nil {
		return err
	}
	recordIndexFiles(ix, c)
	return nil
}
