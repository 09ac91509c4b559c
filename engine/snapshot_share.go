package engine

import "sync"

// The engines of one workspace in one process (serve keeps one per tier,
// mcp a writer and a reader) share their reads: each loads its snapshot
// from the newest one any of them read, so an unchanged file is parsed
// once and held once, however many engines are open. The entry goes when
// the last engine of the workspace closes.

type sharedSnapshot struct {
	engines int
	s       *snapshot
}

var (
	sharedMu    sync.Mutex
	sharedByDir = map[string]*sharedSnapshot{}
)

// joinShared registers an open engine of the workspace at root.
func joinShared(root string) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	sh := sharedByDir[root]
	if sh == nil {
		sh = &sharedSnapshot{}
		sharedByDir[root] = sh
	}
	sh.engines++
}

// leaveShared unregisters a closing engine.
func leaveShared(root string) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sh := sharedByDir[root]; sh != nil {
		if sh.engines--; sh.engines <= 0 {
			delete(sharedByDir, root)
		}
	}
}

// newestShared returns the newest snapshot of the workspace read in this
// process, or nil.
func newestShared(root string) *snapshot {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sh := sharedByDir[root]; sh != nil {
		return sh.s
	}
	return nil
}

// publishShared records s as the newest read of the workspace.
func publishShared(root string, s *snapshot) {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sh := sharedByDir[root]; sh != nil {
		sh.s = s
	}
}
