package writer

import (
	"encoding/json"
	"os"
	"path/filepath"

	"scriptorium/workspace"
)

// The core.md candidates a write files while another core proposal waits
// cannot be proposed then (a second proposal would conflict with the
// first). They wait in a small queue beside the proposals, by block (path
// and id, never text), and the first write after the owner has answered
// the waiting proposal proposes them with its own. A block forgotten or
// moved meanwhile is skipped (coreProposal finds it no more), and forget
// removes the queue when it names a forgotten block's id.

// queuedBlock is a coreBlock as the queue stores it.
type queuedBlock struct {
	Path string `json:"path"`
	ID   string `json:"id"`
}

func (w *writer) coreQueuePath() string {
	return workspace.MetaPath(w.e.Root(), workspace.CoreQueueName)
}

// queuedCore reads the queue; a missing or unreadable queue is empty (it
// is best effort, as the proposal is).
func (w *writer) queuedCore() []coreBlock {
	data, err := os.ReadFile(w.coreQueuePath())
	if err != nil {
		return nil
	}
	var qs []queuedBlock
	if json.Unmarshal(data, &qs) != nil {
		return nil
	}
	out := make([]coreBlock, 0, len(qs))
	for _, q := range qs {
		if q.Path != "" && q.ID != "" {
			out = append(out, coreBlock{path: q.Path, id: q.ID})
		}
	}
	return out
}

// setCoreQueue replaces the queue with cands, atomically; none removes it.
func (w *writer) setCoreQueue(cands []coreBlock) {
	p := w.coreQueuePath()
	if len(cands) == 0 {
		_ = os.Remove(p) // absent already, or removed: either is empty
		return
	}
	qs := make([]queuedBlock, len(cands))
	for i, c := range cands {
		qs[i] = queuedBlock{Path: c.path, ID: c.id}
	}
	data, err := json.Marshal(qs)
	if err != nil {
		return
	}
	dir := filepath.Dir(p)
	if os.MkdirAll(dir, workspace.PrivateDir) != nil {
		return
	}
	_ = workspace.WriteFileAtomic(dir, p, append(data, '\n'))
}

// withQueued is the queue's candidates, then this run's, each block once.
func withQueued(queued, run []coreBlock) []coreBlock {
	seen := map[coreBlock]bool{}
	var out []coreBlock
	for _, c := range append(append([]coreBlock{}, queued...), run...) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
