package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"scriptorium/errcode"
)

// Listed is one Markdown file a ListMarkdown walk found.
type Listed struct {
	Path string      // slash path relative to the workspace root
	Info fs.FileInfo // its lstat information; nil when it could not be read
}

// ListMarkdown lists the regular .md files under root/sub as slash paths
// relative to root, sorted, with their lstat information: the stat walk
// every read of the memory files starts with. Symlinks and other files
// are strays, returned as violations: a symlink could point outside the
// workspace, so it is never followed. A missing sub lists nothing.
//
// The subdirectories of root/sub are walked concurrently: the walk is one
// lstat per file, and at 1M records (25k files) it was more than half of a
// cold search. Strays keep the order of a sequential walk.
func ListMarkdown(root, sub string) ([]Listed, []errcode.Violation, error) {
	base := filepath.Join(root, sub)
	var entries []fs.DirEntry
	if fi, err := os.Lstat(base); err == nil && fi.IsDir() {
		entries, err = os.ReadDir(base)
		if err != nil {
			entries = nil
		}
	}
	if entries == nil { // missing, not a directory, unreadable: the plain walk says which
		w := walkMarkdown(root, sub, base, true)
		return w.done(sub)
	}
	parts := make([]*mdWalk, len(entries))
	sem := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, ent := range entries {
		p := filepath.Join(base, ent.Name())
		if !ent.IsDir() {
			w := &mdWalk{}
			w.err = w.visit(root, sub, p, ent)
			parts[i] = w
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			parts[i] = walkMarkdown(root, sub, p, false)
		}()
	}
	wg.Wait()
	all := &mdWalk{}
	for _, w := range parts {
		all.files = append(all.files, w.files...)
		all.strays = append(all.strays, w.strays...)
		if all.err == nil {
			all.err = w.err
		}
	}
	return all.done(sub)
}

// mdWalk collects one walk's files and strays.
type mdWalk struct {
	files  []Listed
	strays []errcode.Violation
	err    error
}

// walkMarkdown walks the tree at p; top says p is root/sub itself (which
// may be missing). It visits what filepath.WalkDir would, in its order,
// but stats each file relative to its open directory (statAt): WalkDir's
// lstat of the full path walked every component of it again in the
// kernel, most of a cold recall's stat walk (issue 26's profile).
func walkMarkdown(root, sub, p string, top bool) *mdWalk {
	w := &mdWalk{}
	fi, err := os.Lstat(p)
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist) && top:
	case err != nil:
		w.err = err
	case !fi.IsDir():
		w.err = w.visit(root, sub, p, fs.FileInfoToDirEntry(fi))
	default:
		w.err = w.dir(root, sub, p, top)
	}
	return w
}

// dir visits the directory p's entries, depth first in name order.
func (w *mdWalk) dir(root, sub, p string, top bool) error {
	d, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && top {
			return nil
		}
		return err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	rel, _ := filepath.Rel(root, p)
	rel = filepath.ToSlash(rel) + "/"
	for _, ent := range entries {
		switch {
		case ent.IsDir():
			if err := w.dir(root, sub, filepath.Join(p, ent.Name()), false); err != nil {
				return err
			}
		case ent.Type().IsRegular() && strings.HasSuffix(ent.Name(), ".md"):
			// The file's full path is not built: statAt asks the open
			// directory, and the listing wants the slash path alone.
			f := Listed{Path: rel + ent.Name()}
			if fi, err := statAt(d, p, ent.Name()); err == nil {
				f.Info = fi
			}
			w.files = append(w.files, f)
		default:
			_ = w.visit(root, sub, filepath.Join(p, ent.Name()), ent) // a stray
		}
	}
	return nil
}

// visit classifies one entry of the walk.
func (w *mdWalk) visit(root, sub, p string, d fs.DirEntry) error {
	rel, _ := filepath.Rel(root, p)
	rel = filepath.ToSlash(rel)
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		w.strays = append(w.strays, errcode.Violation{Code: "symlink", Path: rel, Message: "symbolic links are not allowed in the workspace"})
	case d.IsDir():
	case d.Type().IsRegular() && strings.HasSuffix(rel, ".md"):
		f := Listed{Path: rel}
		if fi, err := d.Info(); err == nil {
			f.Info = fi
		}
		w.files = append(w.files, f)
	default:
		w.strays = append(w.strays, errcode.Violation{Code: "unexpected_file", Path: rel, Message: "only .md files belong under " + sub + "/"})
	}
	return nil
}

// done sorts the files and reports the walk's error, if any.
func (w *mdWalk) done(sub string) ([]Listed, []errcode.Violation, error) {
	if w.err != nil && !errors.Is(w.err, fs.ErrNotExist) {
		return nil, nil, errcode.Wrap(errcode.IO, w.err, "list %s", sub)
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].Path < w.files[j].Path })
	return w.files, w.strays, nil
}
