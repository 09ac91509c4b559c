package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"scriptorium/engine/deps"
	"scriptorium/engine/result"
	"scriptorium/render"
	"scriptorium/workspace"
)

// incState holds the engine's incremental caches: the dependency index
// (depindex.go) and the derived views kept as per-file fragments. They
// only ever save work: dropped, they are rebuilt from the next snapshot.
type incState struct {
	mu  sync.Mutex // guards idx
	idx depIndex
	// d is guarded by Engine.mu, which every derived-view render holds.
	d *derivedCache
}

// derivedCache is the derived views of the last snapshot rendered, kept so
// that the next render re-renders only the topic files whose bytes or
// trust changed (issue 14), and what the derived files on disk were last
// written or checked as, so unchanged ones are neither read nor written.
type derivedCache struct {
	views    *render.ViewSet
	files    map[string]derivedTopic // topic path → what the views hold for it
	arch     map[string][]byte       // archive path → the bytes trust was resolved against
	promoted map[string]bool

	coreGen  int // bumped whenever topics/core.md's render input changes
	core     []byte
	coreRep  result.CoreReport
	coreKey  [2]int // coreGen and budget core was rendered for
	coreDone bool

	disk map[string]diskFile // derived workspace path → the version last written or checked
}

type derivedTopic struct {
	tf      *topicFile
	trusted []bool
}

type diskFile struct {
	sig  fileSig
	data []byte
}

func newDerivedCache() *derivedCache {
	return &derivedCache{views: render.NewViewSet(), files: map[string]derivedTopic{}, arch: map[string][]byte{},
		disk: map[string]diskFile{}}
}

// renderTopicTrusted is renderTopic with the blocks' trust given.
func renderTopicTrusted(tf *topicFile, trusted []bool) render.Topic {
	t := render.Topic{Path: tf.path, Blocks: slices.Clone(tf.renderBlocks())}
	for i := range t.Blocks {
		t.Blocks[i].Trusted = trusted[i]
	}
	return t
}

// update brings the views to s: only the topic files that changed, cite
// an archive that changed or cite a source whose promotion changed are
// resolved and rendered again.
func (e *Engine) updateDerivedCache(s *snapshot) *derivedCache {
	if e.inc.d == nil {
		e.inc.d = newDerivedCache()
	}
	dc := e.inc.d
	e.inc.mu.Lock()
	e.inc.idx.sync(s)
	dirty := map[string]bool{}
	for p, dt := range dc.files {
		if s.topics[p] != dt.tf {
			dirty[p] = true
		}
	}
	for _, p := range s.topicPaths {
		if dt, ok := dc.files[p]; !ok || dt.tf != s.topics[p] {
			dirty[p] = true
		}
	}
	changedArch := func(p string) { deps.AddKeys(dirty, e.inc.idx.Citers(p)) }
	for p, data := range dc.arch {
		if a, ok := s.archives[p]; !ok || !sameBytes(a.data, data) {
			changedArch(p)
			delete(dc.arch, p)
		}
	}
	for _, p := range s.archPaths {
		if _, ok := dc.arch[p]; !ok {
			changedArch(p)
			dc.arch[p] = s.archives[p].data
		}
	}
	for id := range dc.promoted {
		if !s.promoted[id] {
			deps.AddKeys(dirty, e.inc.idx.Citing(id))
		}
	}
	for id := range s.promoted {
		if !dc.promoted[id] {
			deps.AddKeys(dirty, e.inc.idx.Citing(id))
		}
	}
	e.inc.mu.Unlock()
	dc.promoted = s.promoted
	for p := range dirty {
		tf, ok := s.topics[p]
		if !ok {
			if _, had := dc.files[p]; had {
				dc.views.Remove(p)
				delete(dc.files, p)
				dc.bumpCore(p)
			}
			continue
		}
		trusted := s.trustedBlocks(tf)
		if old, ok := dc.files[p]; ok && slices.Equal(old.trusted, trusted) &&
			(old.tf == tf || bytes.Equal(old.tf.data, tf.data)) {
			dc.files[p] = derivedTopic{tf: tf, trusted: trusted} // the same bytes read again
			continue
		}
		dc.views.Set(renderTopicTrusted(tf, trusted))
		dc.files[p] = derivedTopic{tf: tf, trusted: trusted}
		dc.bumpCore(p)
	}
	return dc
}

func (dc *derivedCache) bumpCore(p string) {
	if p == coreTopicPath {
		dc.coreGen++
	}
}

// derivedFilesCached is derivedFiles through the cache: the same bytes,
// rendered from the fragments of unchanged files.
func (e *Engine) derivedFilesCached(s *snapshot) (map[string][]byte, result.CoreReport) {
	dc := e.updateDerivedCache(s)
	budget := e.Config().Memory.Core.Budget
	if key := [2]int{dc.coreGen, budget}; !dc.coreDone || dc.coreKey != key {
		t := render.Topic{Path: coreTopicPath}
		if dt, ok := dc.files[coreTopicPath]; ok {
			t = renderTopicTrusted(dt.tf, dt.trusted)
		}
		out, rep := render.Core(t, budget)
		rep.Included, rep.Excluded, rep.Pending = nonNil(rep.Included), nonNil(rep.Excluded), nonNil(rep.Pending)
		dc.core, dc.coreRep, dc.coreKey, dc.coreDone = out, rep, key, true
	}
	days := dc.views.Timeline()
	files := make(map[string][]byte, len(days)+3)
	files["core.md"] = dc.core
	files["recent_events.jsonl"] = dc.views.RecentEvents()
	files["relations.json"] = dc.views.Relations()
	for p, data := range days {
		files[p] = data
	}
	rep := dc.coreRep
	rep.Included, rep.Excluded, rep.Pending = slices.Clone(rep.Included), slices.Clone(rep.Excluded), slices.Clone(rep.Pending)
	return files, rep
}

// writeDerivedFiles makes the derived files on disk exactly files: a
// file whose bytes and on-disk version are the ones last written or
// checked is left alone without reading it; any other is read, compared
// and rewritten when it differs (a hand edit does not last); timeline days
// not in files are removed.
func (e *Engine) writeDerivedFiles(dc *derivedCache, files map[string][]byte) error {
	root := e.ws.Root()
	onDisk := map[string]fileSig{}
	tl := filepath.Join(root, "timeline")
	_ = filepath.WalkDir(tl, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if fi, err := d.Info(); err == nil {
			onDisk[filepath.ToSlash(rel)] = sigOf(fi)
		}
		return nil
	})
	for _, p := range []string{"core.md", "recent_events.jsonl", "relations.json"} {
		if fi, err := os.Lstat(filepath.Join(root, p)); err == nil {
			onDisk[p] = sigOf(fi)
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data := files[p]
		sig, exists := onDisk[p]
		if rec, ok := dc.disk[p]; ok && exists && rec.sig == sig && bytes.Equal(rec.data, data) {
			continue
		}
		delete(dc.disk, p)
		target := filepath.Join(root, filepath.FromSlash(p))
		if exists {
			if old, err := os.ReadFile(target); err == nil && bytes.Equal(old, data) {
				dc.disk[p] = diskFile{sig: sig, data: data}
				continue
			}
		}
		if err := workspace.WriteFileAtomic(e.ws.RuntimeDir(), target, data); err != nil {
			return Wrap(CodeIO, err, "write %s", p)
		}
		if fi, err := os.Lstat(target); err == nil {
			dc.disk[p] = diskFile{sig: sigOf(fi), data: data}
		}
	}
	// Remove timeline days that no trusted block mentions any more.
	for p := range onDisk {
		if _, keep := files[p]; keep || !strings.HasPrefix(p, "timeline/") {
			continue
		}
		delete(dc.disk, p)
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Wrap(CodeIO, err, "remove stale %s", full)
		}
		removeEmptyDirs(filepath.Dir(full), tl)
	}
	return nil
}

// sigOf is the fileSig of an lstat result, as listMarkdown takes it.
func sigOf(fi fs.FileInfo) fileSig {
	sig := fileSig{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		sig.ino = st.Ino
	}
	return sig
}
