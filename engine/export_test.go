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
	// Every file of a fresh copy is racy (just written), but its bytes are
	// the original's, which the index describes: record none as racy, as a
	// build long after the files were written would.
	meta := s.indexMeta(e.ws.Root(), time.Now())
	meta[racyKey] = `{"stamp":0,"files":{}}`
	if err := ix.ApplyWithMeta(nil, nil, meta); err != nil {
		return err
	}
	recordIndexFiles(e.ws.Root(), ix, s)
	return nil
}
