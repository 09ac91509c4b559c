package manifest

import (
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// Path is the manifest file of the workspace at root.
func Path(root string) string { return workspace.MetaPath(root, FileName) }

// Read reads the manifest at path; a missing, damaged or unreadable one
// reads as empty, so every file is read again and the manifest rebuilt.
func Read(path string) *Manifest {
	data, err := os.ReadFile(path)
	if err != nil {
		return New()
	}
	m, err := Decode(data, path)
	if err != nil {
		return New()
	}
	return m
}

// Write replaces the manifest at path, best effort: it is a cache, and a
// reader that finds it missing or stale reads the files instead. Two
// processes writing at once each install a complete, self-checking file.
// tmpDir is where the temporary file is staged (the runtime directory).
func Write(tmpDir, path string, m *Manifest, now time.Time) {
	_ = workspace.WriteFileAtomic(tmpDir, path, m.Encode(now.UnixNano()))
}

// Reconcile brings m to the files a stat walk listed: entries of paths no
// longer listed are dropped, and each listed file its entry does not
// describe (content reads it, for a racy entry's hash) is given a fresh
// entry by refresh. refresh's false (the file is changing under the read)
// stops with ok false. changed says whether m moved.
func (m *Manifest) Reconcile(listed map[string]Sig, content func(p string) ([]byte, error),
	refresh func(p string) (*Entry, bool)) (changed, ok bool) {
	for _, p := range m.Paths() {
		if _, ok := listed[p]; !ok {
			m.Delete(p)
			changed = true
		}
	}
	for p, sig := range listed {
		if m.Get(p).Describes(sig, func() ([]byte, error) { return content(p) }) {
			continue
		}
		ent, ok := refresh(p)
		if !ok {
			return changed, false
		}
		m.Put(ent)
		changed = true
	}
	return changed, true
}

// TopicEntry is the summary of a topic file, without its signature: its
// block ids in file order and the archives its footnotes cite (resolved
// against the file's path, sorted).
func TopicEntry(path string, f *topic.File, defs map[string]*topic.Definition) *Entry {
	ent := &Entry{Path: path}
	for _, b := range f.Blocks() {
		ent.Blocks = append(ent.Blocks, b.BlockID)
	}
	// A topic cites a few archives many times over: each link is resolved
	// once (path.Join and Clean per citation were most of a fresh
	// process's manifest, issue 26).
	seen, rels := map[string]bool{}, map[string]bool{}
	for _, d := range defs {
		for _, c := range d.Sources {
			if rels[c.Path] {
				continue
			}
			rels[c.Path] = true
			if p := topic.ResolvePath(path, c.Path); p != "" && !seen[p] {
				seen[p] = true
				ent.Cites = append(ent.Cites, p)
			}
		}
	}
	sort.Strings(ent.Cites)
	return ent
}

// ArchiveEntry is the summary of an archive of the thread
// <provider>/<thread>, without its signature: its record count, the
// source-ids of its frames marked pending, and the source-ids of records
// outside the thread.
func ArchiveEntry(path, provider, thread string, frames []archive.Frame, legacy []archive.LegacyRecord) *Entry {
	ent := &Entry{Path: path}
	own := provider + "/" + thread + "/"
	// The ids are copied: a frame's source-id is a slice of the whole
	// archive's bytes, which the summary must not keep alive.
	foreign := func(id string) {
		if id != "" && !strings.HasPrefix(id, own) {
			ent.Foreign = append(ent.Foreign, strings.Clone(id))
		}
	}
	for _, f := range frames {
		ent.Records++
		if f.Pending {
			ent.Pending = append(ent.Pending, strings.Clone(f.SourceID))
		}
		foreign(f.SourceID)
	}
	for _, r := range legacy {
		ent.Records++
		foreign(r.SourceID)
	}
	return ent
}

// Cached holds a parsed file's summary once built (a snapshot shares an
// unchanged file, and so its summary, with the last).
type Cached struct {
	once sync.Once
	ent  *Entry
}

// Get returns a copy of the summary, building it on first use; a nil
// Cached builds it every time.
func (c *Cached) Get(build func() *Entry) *Entry {
	if c == nil {
		return build()
	}
	c.once.Do(func() { c.ent = build() })
	cp := *c.ent
	return &cp
}
