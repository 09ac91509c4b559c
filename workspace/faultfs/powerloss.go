package faultfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Power loss: a model of what is durable (file bytes fsynced, directory
// entries whose directory was fsynced), rebuilt into a tree after a crash.

// node is a file or directory of the durability model.
type node struct {
	dir bool
	// files: the bytes written so far and the bytes known durable.
	data, durable []byte
	// dirs: the entries now and the entries known durable.
	entries, durEntries map[string]*node
}

func (n *node) clone() map[string]*node {
	m := make(map[string]*node, len(n.entries))
	for k, v := range n.entries {
		m[k] = v
	}
	return m
}

// model is the durability model of the tree under root.
type model struct {
	root      string
	top       *node
	untracked func(rel string) bool
}

// NewPowerLoss returns an FS that models durability under root from Start
// on and loses power at trace index crashAt (no operation from then on
// happens). untracked names the slash paths relative to root (files or
// whole directories) that other writers own, such as SQLite databases:
// the model ignores them and Restore leaves them alone. It may be nil.
func NewPowerLoss(root string, crashAt int, untracked func(rel string) bool) *FS {
	if untracked == nil {
		untracked = func(string) bool { return false }
	}
	f := New()
	f.crashAt = crashAt
	f.model = &model{root: filepath.Clean(root), untracked: untracked}
	return f
}

// StartPowerLoss begins recording and takes the tree under root as the
// durable state the model starts from.
func (f *FS) StartPowerLoss() error {
	top, err := f.model.load(f.model.root, ".")
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.model.top = top
	f.mu.Unlock()
	f.Start()
	return nil
}

func (m *model) load(abs, rel string) (*node, error) {
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, err
		}
		return &node{data: data, durable: append([]byte(nil), data...)}, nil
	}
	n := &node{dir: true, entries: map[string]*node{}}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		crel := path(rel, e.Name())
		if m.untracked(crel) || e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		c, err := m.load(filepath.Join(abs, e.Name()), crel)
		if err != nil {
			return nil, err
		}
		n.entries[e.Name()] = c
	}
	n.durEntries = n.clone()
	return n, nil
}

func path(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// rel returns p relative to the model root, ok=false outside it or when
// untracked.
func (m *model) rel(p string) (string, bool) {
	r, err := filepath.Rel(m.root, filepath.Clean(p))
	if err != nil || r == ".." || strings.HasPrefix(r, "../") {
		return "", false
	}
	r = filepath.ToSlash(r)
	if r != "." && m.untracked(r) {
		return "", false
	}
	return r, true
}

// lookup finds the directory holding rel and the final name; nil when a
// parent is unknown to the model.
func (m *model) lookup(rel string) (*node, string) {
	if m.top == nil || rel == "." {
		return nil, ""
	}
	parts := strings.Split(rel, "/")
	d := m.top
	for _, p := range parts[:len(parts)-1] {
		c, ok := d.entries[p]
		if !ok || !c.dir {
			return nil, ""
		}
		d = c
	}
	return d, parts[len(parts)-1]
}

func (m *model) node(rel string) *node {
	if rel == "." {
		return m.top
	}
	d, name := m.lookup(rel)
	if d == nil {
		return nil
	}
	return d.entries[name]
}

func (f *FS) withModel(fn func(m *model)) {
	if f.model == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.started || f.model.top == nil {
		return
	}
	fn(f.model)
}

func (f *FS) modelCreate(p string, truncated bool) {
	f.withModel(func(m *model) {
		r, ok := m.rel(p)
		if !ok {
			return
		}
		d, name := m.lookup(r)
		if d == nil {
			return
		}
		if old, ok := d.entries[name]; ok && truncated && !old.dir {
			old.data = nil
			return
		}
		d.entries[name] = &node{}
	})
}

func (f *FS) modelWrite(h *file, p []byte) {
	f.withModel(func(m *model) {
		r, ok := m.rel(h.path)
		if !ok {
			return
		}
		n := m.node(r)
		if n == nil || n.dir {
			return
		}
		off := h.off
		if h.appendMode {
			off = int64(len(n.data))
		}
		end := off + int64(len(p))
		if int64(len(n.data)) < end {
			n.data = append(n.data, make([]byte, end-int64(len(n.data)))...)
		}
		copy(n.data[off:end], p)
		h.off = end
	})
}

func (f *FS) modelSync(p string) {
	f.withModel(func(m *model) {
		r, ok := m.rel(p)
		if !ok {
			return
		}
		if n := m.node(r); n != nil && !n.dir {
			n.durable = append([]byte(nil), n.data...)
		}
	})
}

func (f *FS) modelRename(oldpath, newpath string) {
	f.withModel(func(m *model) {
		ro, okOld := m.rel(oldpath)
		rn, okNew := m.rel(newpath)
		var n *node
		if okOld {
			if d, name := m.lookup(ro); d != nil {
				n = d.entries[name]
				delete(d.entries, name)
			}
		}
		if !okNew {
			return
		}
		d, name := m.lookup(rn)
		if d == nil {
			return
		}
		if n == nil {
			// From outside the model: its bytes are not known durable.
			loaded, err := m.load(newpath, rn)
			if err != nil {
				return
			}
			loaded.durable = nil
			n = loaded
		}
		d.entries[name] = n
	})
}

func (f *FS) modelRemove(p string) {
	f.withModel(func(m *model) {
		r, ok := m.rel(p)
		if !ok {
			return
		}
		if d, name := m.lookup(r); d != nil {
			delete(d.entries, name)
		}
	})
}

func (f *FS) modelMkdir(p string) {
	f.withModel(func(m *model) {
		r, ok := m.rel(p)
		if !ok {
			return
		}
		if d, name := m.lookup(r); d != nil {
			d.entries[name] = &node{dir: true, entries: map[string]*node{}, durEntries: map[string]*node{}}
		}
	})
}

func (f *FS) modelSyncDir(p string) {
	f.withModel(func(m *model) {
		r, ok := m.rel(p)
		if !ok {
			return
		}
		if n := m.node(r); n != nil && n.dir {
			n.durEntries = n.clone()
		}
	})
}

// Restore rewrites the tree under root to what the model says is durable:
// files the machine would find after losing power at the crash index, with
// the bytes they had at their last fsync, in the directories whose entries
// were last fsynced. Untracked paths, and entries the FS never saw, are
// left as they are. Call it after the code under test has returned and
// before anything else touches the tree.
func (f *FS) Restore() error {
	if f.model == nil || f.model.top == nil {
		return errors.New("faultfs: Restore needs NewPowerLoss and StartPowerLoss")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started = false
	return f.model.restore(f.model.root, ".", f.model.top, map[*node]bool{})
}

// Durable lists the files (slash paths) the model holds as durable, with
// their durable bytes, for tests of this package and for debugging.
func (f *FS) Durable() map[string]string {
	out := map[string]string{}
	f.mu.Lock()
	defer f.mu.Unlock()
	var walk func(rel string, n *node)
	walk = func(rel string, n *node) {
		for name, c := range n.durEntries {
			cr := path(rel, name)
			if c.dir {
				walk(cr, c)
			} else {
				out[cr] = string(c.durable)
			}
		}
	}
	if f.model != nil && f.model.top != nil {
		walk(".", f.model.top)
	}
	return out
}

func (m *model) restore(abs, rel string, n *node, seen map[*node]bool) error {
	if seen[n] {
		// The same directory durable under two names (renamed, both parents
		// fsynced): a real filesystem keeps one; restore it once.
		return nil
	}
	seen[n] = true
	live, err := os.ReadDir(abs)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for name := range n.entries {
		known[name] = true
	}
	for name := range n.durEntries {
		known[name] = true
	}
	for _, e := range live {
		name := e.Name()
		if m.untracked(path(rel, name)) {
			continue
		}
		if _, durable := n.durEntries[name]; durable {
			continue
		}
		if known[name] {
			if err := os.RemoveAll(filepath.Join(abs, name)); err != nil {
				return err
			}
		}
	}
	names := make([]string, 0, len(n.durEntries))
	for name := range n.durEntries {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c := n.durEntries[name]
		cabs, crel := filepath.Join(abs, name), path(rel, name)
		fi, err := os.Lstat(cabs)
		exists := err == nil
		if c.dir {
			if exists && !fi.IsDir() {
				if err := os.Remove(cabs); err != nil {
					return err
				}
				exists = false
			}
			if !exists {
				if err := os.Mkdir(cabs, 0o755); err != nil {
					return err
				}
			}
			if err := m.restore(cabs, crel, c, seen); err != nil {
				return err
			}
			continue
		}
		if exists && fi.IsDir() {
			if err := os.RemoveAll(cabs); err != nil {
				return err
			}
		}
		if err := os.WriteFile(cabs, c.durable, 0o644); err != nil {
			return err
		}
	}
	return nil
}
