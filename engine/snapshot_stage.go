package engine

import (
	"encoding/json"
	"errors"
	"io/fs"
	"sort"

	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/stage"
)

// A read of the workspace never sees an install half done (issue 24 §3):
// it goes through the committed stages (workspace/stage), and a walk an
// install landed in is walked again.

// maxStageRetries bounds the walks done again because installs kept
// landing during them.
const maxStageRetries = 20

// readStageOverlay reads the committed stages of the workspace at root.
// doubted (may be nil) names the journals, by checksum, that this process
// failed to make durable and could not withdraw (installJournal's fail):
// such a journal may not survive a power loss, so the process that was
// told its install failed must not read it as done (it would mark turns
// written that a crash then loses); the next opener completes or drops it.
func readStageOverlay(root string, doubted func(sum string) bool) stage.Overlay {
	return stage.Read(root, workspace.MetaDir, journalName, func(data []byte) ([]stage.Op, int64, bool) {
		var j journal
		if json.Unmarshal(data, &j) != nil || j.Sum == "" || j.Sum != j.checksum() {
			return nil, 0, false
		}
		if doubted != nil && doubted(j.Sum) {
			return nil, 0, false
		}
		ops := make([]stage.Op, len(j.Ops))
		for i, op := range j.Ops {
			ops[i] = stage.Op{Target: op.Target, Staged: op.Staged}
		}
		return ops, j.Revision, true
	})
}

// applyStages lists the files of sub as the committed stages leave them:
// a deleted target is dropped, a staged one listed with no signature (so
// it is read through the stage and never reused on its signature).
func applyStages(ov stage.Overlay, sub string, listed []listedFile) []listedFile {
	if ov.Empty() {
		return listed
	}
	out := make([]listedFile, 0, len(listed))
	have := map[string]bool{}
	for _, f := range listed {
		target, deleted := ov.Target(f.path)
		if deleted {
			continue
		}
		if target {
			f.sig = fileSig{}
		}
		have[f.path] = true
		out = append(out, f)
	}
	for _, p := range ov.Added(sub, func(p string) bool { return have[p] }) {
		out = append(out, listedFile{path: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// loadSnapshot reads topics/ and sources/ of the workspace at root as the
// committed installs leave them, walking again when an install landed
// during the walk (loadFiles does one walk).
func loadSnapshot(root string, promoted map[string]bool, prev *snapshot) (*snapshot, error) {
	return loadSnapshotDoubting(root, promoted, prev, nil, false)
}

// loadSnapshotDoubting is loadSnapshot that skips the doubted journals,
// trust-only if asked (loadFiles).
func loadSnapshotDoubting(root string, promoted map[string]bool, prev *snapshot, doubted func(string) bool, trustOnly bool) (*snapshot, error) {
	ov := readStageOverlay(root, doubted)
	var vanished error
	for range maxStageRetries {
		s, err := loadFiles(root, promoted, prev, ov, trustOnly)
		after := readStageOverlay(root, doubted)
		// A file the walk listed and could not read was removed by an
		// install, whatever the stages say when looked at again: walk again.
		gone := errors.Is(err, fs.ErrNotExist)
		if after.Seen == ov.Seen && !gone {
			return s, err
		}
		if gone {
			vanished = err
		}
		ov = after
	}
	if vanished != nil {
		return nil, vanished
	}
	return nil, errcode.Errorf(errcode.LockBusy, "installs kept landing while the workspace was read; try again")
}
