package importer

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

// fileID is a file's identity on its device: the walk enters a folder
// once, however many links lead to it.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}

// walked is a regular file a walk found, under the name it was found by.
type walked struct {
	name  string // relative to the root, "/" separators
	size  int64
	mtime time.Time
}

// walkFolder lists the regular files under root by name. Unlike
// fs.WalkDir it follows symbolic links, to files and to folders: a
// symlinked root, or an export linked into a folder from elsewhere, is
// read as if it were there. Links are followed after the walk of what is
// really there, so a file or folder is read once, under its own name when
// the walk reaches it without a link: a link back into the walk (a cycle)
// or to what the walk reads already is skipped. What the walk does not
// read is returned as skipped, with why: such a link, a broken link, a
// link to a device, pipe or socket. A directory it cannot read is an
// error, never silently left out.
func walkFolder(root string) (files []walked, skipped []Unrecognised, err error) {
	return walkFrom(root, false)
}

// walkFrom is walkFolder; lenient skips a folder it cannot read instead
// (the daemon's watcher tries again next round).
func walkFrom(root string, lenient bool) (files []walked, skipped []Unrecognised, err error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, nil, err
	}
	w := &walker{root: root, lenient: lenient, dirs: map[fileID]string{}, files: map[fileID]string{}}
	if id, ok := idOf(fi); ok {
		w.dirs[id] = "."
	}
	if err := w.dir("."); err != nil {
		return nil, nil, err
	}
	for len(w.links) > 0 {
		name := w.links[0]
		w.links = w.links[1:]
		if err := w.link(name); err != nil {
			return nil, nil, err
		}
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].name < w.out[j].name })
	sort.Slice(w.skipped, func(i, j int) bool { return w.skipped[i].Path < w.skipped[j].Path })
	return w.out, w.skipped, nil
}

type walker struct {
	root    string
	lenient bool
	dirs    map[fileID]string // folders entered, by the name they were entered by
	files   map[fileID]string // files listed, by name
	links   []string          // symbolic links found, followed after the rest
	out     []walked
	skipped []Unrecognised
}

func (w *walker) skip(name, why string) {
	w.skipped = append(w.skipped, Unrecognised{Path: filepath.Join(w.root, filepath.FromSlash(name)), LooksLike: why})
}

// dir lists the folder rel, leaving its links for later.
func (w *walker) dir(rel string) error {
	entries, err := os.ReadDir(filepath.Join(w.root, filepath.FromSlash(rel)))
	if err != nil {
		if w.lenient && rel != "." {
			return nil
		}
		return err
	}
	for _, e := range entries {
		name := path.Join(rel, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			w.links = append(w.links, name)
			continue
		}
		if !e.IsDir() && !e.Type().IsRegular() {
			continue // a device, pipe or socket: never read
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if err := w.add(name, fi, false); err != nil {
			return err
		}
	}
	return nil
}

// link follows the symbolic link name.
func (w *walker) link(name string) error {
	fi, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(name)))
	if err != nil {
		w.skip(name, "a symbolic link that leads nowhere ("+err.Error()+")")
		return nil
	}
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		w.skip(name, "a symbolic link to no regular file ("+fi.Mode().Type().String()+")")
		return nil
	}
	return w.add(name, fi, true)
}

// add lists a regular file or enters a folder, once per identity.
func (w *walker) add(name string, fi os.FileInfo, link bool) error {
	id, hasID := idOf(fi)
	seen := w.files
	if fi.IsDir() {
		seen = w.dirs
	}
	if prev, ok := seen[id]; hasID && ok {
		if link {
			what := "file"
			if fi.IsDir() {
				what = "folder"
			}
			w.skip(name, fmt.Sprintf("a symbolic link to a %s the walk reads already (%s)", what, prev))
		}
		return nil
	}
	if hasID {
		seen[id] = name
	}
	if fi.IsDir() {
		return w.dir(name)
	}
	w.out = append(w.out, walked{name: name, size: fi.Size(), mtime: fi.ModTime()})
	return nil
}
