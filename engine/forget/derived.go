package forget

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/filediff"
	"scriptorium/engine/result"
)

// derivedDiffs diffs the derived views as they are on disk against their
// render from after; timeline days no trusted block mentions any more are
// deletions. Nothing is written.
func derivedDiffs(e *engine.Engine, after *engine.View) []result.FileDiff {
	files := e.DerivedFiles(after)
	root := e.Root()
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	_ = filepath.WalkDir(filepath.Join(root, "timeline"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); files[rel] == nil {
			paths = append(paths, rel)
		}
		return nil
	})
	sort.Strings(paths)
	var out []result.FileDiff
	for _, p := range paths {
		old, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			old = nil
		}
		if bytes.Equal(old, files[p]) {
			continue
		}
		out = append(out, result.FileDiff{Path: p, Diff: filediff.Unified(p, old, files[p])})
	}
	return out
}
