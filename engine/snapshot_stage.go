package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/workspace"
)

// A read of the workspace must never see an install half done (issue 24
// §3). Past its commit point (journal.json in its stage) an install
// renames its files one by one; if its process dies there, the tree holds
// some new files and some old ones until someone takes the write lock and
// rolls the stage forward. A one-shot verb does that at open; a long-lived
// engine (serve, daemon, mcp, the TUI) only reads, so it reads through the
// stage instead: every target of a committed journal is read as the
// journal leaves it (the staged file while it is still staged, the target
// once renamed, absent when deleted). And an install by a live process may
// commit and rename while the walk is under way: the committed stages and
// the revision are looked at before and after the walk, and the walk is
// done again when they moved.

// stageOverlay is what the committed stages of the runtime directory say
// the memory files are about to be.
type stageOverlay struct {
	stages  map[string]string // target → absolute staged file ("" deletes it)
	runtime string
	seen    string // committed stage names and the revision: moves with every install
}

// maxStageRetries bounds the walks done again because installs kept
// landing during them.
const maxStageRetries = 20

// readStageOverlay reads the committed stages under root's runtime
// directory, oldest revision first so a later one wins.
func readStageOverlay(root string) stageOverlay {
	meta := filepath.Join(root, workspace.MetaDir)
	ov := stageOverlay{runtime: filepath.Join(meta, "runtime")}
	var seen strings.Builder
	rev, _ := os.ReadFile(filepath.Join(meta, "revision"))
	seen.Write(bytes.TrimSpace(rev))
	entries, _ := os.ReadDir(ov.runtime)
	var js []journal
	var dirs []string
	for _, ent := range entries {
		if !ent.IsDir() || !strings.HasPrefix(ent.Name(), "tx-") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(ov.runtime, ent.Name(), journalName))
		var j journal
		if err != nil || json.Unmarshal(data, &j) != nil || j.Sum == "" || j.Sum != j.checksum() {
			continue // not committed: the install has not touched the tree
		}
		js, dirs = append(js, j), append(dirs, ent.Name())
		seen.WriteString(" " + ent.Name())
	}
	ov.seen = seen.String()
	order := make([]int, len(js))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return js[order[a]].Revision < js[order[b]].Revision })
	for _, i := range order {
		for _, op := range js[i].Ops {
			if !strings.HasPrefix(op.Target, "topics/") && !strings.HasPrefix(op.Target, "sources/") {
				continue
			}
			if ov.stages == nil {
				ov.stages = map[string]string{}
			}
			staged := ""
			if op.Staged != "" {
				staged = filepath.Join(ov.runtime, dirs[i], op.Staged)
			}
			ov.stages[op.Target] = staged
		}
	}
	return ov
}

// apply lists the files of sub as the committed stages leave them: a
// deleted target is dropped, a staged one listed (with no signature, so
// it is read through read and never reused on its signature).
func (ov stageOverlay) apply(sub string, listed []listedFile) []listedFile {
	if len(ov.stages) == 0 {
		return listed
	}
	out := make([]listedFile, 0, len(listed))
	have := map[string]bool{}
	for _, f := range listed {
		staged, ok := ov.stages[f.path]
		if ok && staged == "" {
			continue
		}
		if ok {
			f.sig = fileSig{}
		}
		have[f.path] = true
		out = append(out, f)
	}
	for target, staged := range ov.stages {
		if staged != "" && !have[target] && strings.HasPrefix(target, sub+"/") && strings.HasSuffix(target, ".md") {
			out = append(out, listedFile{path: target})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// read reads a memory file as the committed stages leave it: the staged
// bytes while they are staged, else the target (renamed into place since).
func (ov stageOverlay) read(root, p string) ([]byte, error) {
	if staged := ov.stages[p]; staged != "" {
		data, err := os.ReadFile(staged)
		if !errors.Is(err, fs.ErrNotExist) {
			return data, err
		}
	}
	return os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
}

// loadSnapshot reads topics/ and sources/ of the workspace at root as the
// committed installs leave them, walking again when an install landed
// during the walk (loadFiles does one walk).
func loadSnapshot(root string, promoted map[string]bool, prev *snapshot) (*snapshot, error) {
	ov := readStageOverlay(root)
	for range maxStageRetries {
		s, err := loadFiles(root, promoted, prev, ov)
		after := readStageOverlay(root)
		if after.seen == ov.seen {
			return s, err
		}
		ov = after
	}
	return nil, Errorf(CodeLockBusy, "installs kept landing while the workspace was read; try again")
}
