// Package stage reads a workspace through the committed stages of its
// installs (issue 24 §3). Past its commit point (journal.json in its
// stage under .scriptorium/runtime/tx-*) an install renames its files one
// by one; if its process dies there, the tree holds some new files and
// some old ones until someone takes the write lock and rolls the stage
// forward. A reader that does not take the lock (a long-lived engine, a
// one-shot read beside a live install) reads every target of a committed
// journal as the journal leaves it: the staged file while it is still
// staged, the target once renamed, absent when deleted. Seen changes with
// every install (the committed stages and the revision), so a reader
// compares it before and after a walk and walks again when it moved.
//
// The journal's format belongs to the engine, which tells this package
// what a committed journal holds (Committed).
package stage

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"scriptorium/workspace"
	"scriptorium/workspace/bulkread"
	"sort"
	"strings"
)

// Op is one target of a committed journal: a workspace-relative slash
// path, and the name of its staged file inside the stage ("" deletes it).
type Op struct {
	Target, Staged string
}

// Committed reports what a journal holds: its ops and revision, and false
// for one that is not committed (torn, unchecked, unreadable).
type Committed func(journal []byte) (ops []Op, revision int64, ok bool)

// Overlay is what the committed stages say the memory files are about to
// be.
type Overlay struct {
	files map[string]string // target → absolute staged file ("" deletes it)
	// Seen names the committed stages and the revision: it moves with
	// every install.
	Seen string
}

// Read reads the committed stages of the workspace at root (metaDir is
// its .scriptorium folder name), oldest revision first so a later one
// wins. Only topics/ and sources/ targets are kept.
func Read(root, metaDir, journalName string, committed Committed) Overlay {
	meta := filepath.Join(root, metaDir)
	runtime := filepath.Join(meta, "runtime")
	var ov Overlay
	var seen strings.Builder
	rev, _ := os.ReadFile(filepath.Join(meta, "revision"))
	seen.Write(bytes.TrimSpace(rev))
	type stage struct {
		dir string
		ops []Op
		rev int64
	}
	var stages []stage
	// An install stages in .scriptorium/ itself when runtime/ is on another
	// filesystem (workspace.StageDir): both are read.
	for _, parent := range []string{runtime, meta} {
		entries, _ := os.ReadDir(parent)
		for _, ent := range entries {
			if !ent.IsDir() || !strings.HasPrefix(ent.Name(), workspace.StagePrefix) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(parent, ent.Name(), journalName))
			if err != nil {
				continue
			}
			ops, r, ok := committed(data)
			if !ok {
				continue // not committed: the install has not touched the tree
			}
			stages = append(stages, stage{filepath.Join(parent, ent.Name()), ops, r})
			seen.WriteString(" " + ent.Name())
		}
	}
	ov.Seen = seen.String()
	sort.SliceStable(stages, func(a, b int) bool { return stages[a].rev < stages[b].rev })
	for _, st := range stages {
		for _, op := range st.ops {
			if !strings.HasPrefix(op.Target, "topics/") && !strings.HasPrefix(op.Target, "sources/") {
				continue
			}
			if ov.files == nil {
				ov.files = map[string]string{}
			}
			staged := ""
			if op.Staged != "" {
				staged = filepath.Join(st.dir, op.Staged)
			}
			ov.files[op.Target] = staged
		}
	}
	return ov
}

// Empty reports whether no committed stage is pending.
func (ov Overlay) Empty() bool { return len(ov.files) == 0 }

// Target reports whether p is a target of a committed stage, and whether
// the stage deletes it.
func (ov Overlay) Target(p string) (target, deleted bool) {
	staged, ok := ov.files[p]
	return ok, ok && staged == ""
}

// Added lists the targets a committed stage writes under sub/ (ending in
// .md) that listed says are not on disk yet, sorted.
func (ov Overlay) Added(sub string, listed func(p string) bool) []string {
	var out []string
	for target, staged := range ov.files {
		if staged != "" && !listed(target) && strings.HasPrefix(target, sub+"/") && strings.HasSuffix(target, ".md") {
			out = append(out, target)
		}
	}
	sort.Strings(out)
	return out
}

// ReadFile reads the memory file p of the workspace at root as the
// committed stages leave it: the staged bytes while they are staged, else
// the target (renamed into place since).
func (ov Overlay) ReadFile(root, p string) ([]byte, error) {
	if staged := ov.files[p]; staged != "" {
		data, err := bulkread.ReadFile(staged)
		if !errors.Is(err, fs.ErrNotExist) {
			return data, err
		}
	}
	return bulkread.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
}
