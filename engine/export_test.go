package engine

import (
	"context"
	"time"
)

// AdoptCopiedIndex makes the index of a byte-identical copy of a workspace
// describe the copy. A copy has new inodes and ctimes, so its signatures
// differ from the ones the index recorded although every byte is the same;
// benchmarks copy one warm workspace per iteration and must not pay a
// rebuild for that. Test-only: nothing here checks that the copy is
// identical.
func AdoptCopiedIndex(stateDir string) error {
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: stateDir})
	if err != nil {
		return err
	}
	defer e.Close()
	s, err := e.snapshot(ctx)
	if err != nil {
		return err
	}
	ix, err := e.openIndex()
	if err != nil {
		return err
	}
	defer ix.Close()
	return ix.ApplyWithMeta(nil, nil, s.indexMeta(e.ws.Root(), time.Now()))
}
