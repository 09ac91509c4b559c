package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// ListFiles lists the memory files under sub, which is "topics", "sources"
// or a slash-separated directory below one of them ("topics/people").
// files holds the regular files whose names end in ".md"; symlinks holds
// every symbolic link met on the way (files or directories, whatever their
// name), which are neither followed nor listed so validation can flag
// them. Both are sorted slash-separated paths relative to the workspace
// root ("topics/people/dave.md"). A missing sub is empty, not an error.
// Nothing under .scriptorium/ can be listed.
func ListFiles(w *Workspace, sub string) (files, symlinks []string, err error) {
	clean := path.Clean(sub)
	if sub == "" || path.IsAbs(sub) || strings.Contains(sub, `\`) || clean != strings.TrimSuffix(sub, "/") ||
		(clean != TopicsDir && clean != SourcesDir &&
			!strings.HasPrefix(clean, TopicsDir+"/") && !strings.HasPrefix(clean, SourcesDir+"/")) {
		return nil, nil, fmt.Errorf("list %q: %w: want topics/ or sources/ or a directory below them", sub, ErrInvalidPath)
	}
	root := w.Path(clean)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		rel, err := filepath.Rel(w.root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			symlinks = append(symlinks, rel)
		case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".md"):
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("list %s: %w", sub, err)
	}
	sort.Strings(files)
	sort.Strings(symlinks)
	return files, symlinks, nil
}
