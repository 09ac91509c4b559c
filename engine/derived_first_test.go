package engine

import (
	"context"
	"testing"
)

// TestCore_FirstRenderBuildsNoDepIndex: a one-shot core renders every
// topic file, so it builds no dependency index (at 1M records the index
// of every archive's source-ids was hundreds of MB, issue 26); the index
// is built by the next render that needs it.
func TestCore_FirstRenderBuildsNoDepIndex(t *testing.T) {
	ctx := context.Background()
	for _, src := range fixtureStates(t)[:3] {
		state, warm, s := warmCopy(t, src)
		_ = warm.Close()
		if len(s.archPaths) == 0 {
			continue
		}
		e, err := Open(ctx, Options{StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Core(ctx); err != nil {
			t.Fatal(err)
		}
		if n := len(e.inc.idx.archives); n != 0 {
			t.Errorf("%s: a first core render indexed %d archives", src, n)
		}
		_ = e.Close()
	}
}
