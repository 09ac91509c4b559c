package engine

import (
	"bytes"
	"slices"
	"sync"

	"scriptorium/engine/deps"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/engine/viewcache"
	"scriptorium/render"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/mirror"
)

// incState holds the engine's incremental caches: the dependency index
// (depindex.go) and the derived views kept as per-file fragments. They
// only ever save work: dropped, they are rebuilt from the next snapshot.
type incState struct {
	mu  sync.Mutex // guards idx
	idx depIndex
	// d and disk are guarded by Engine.mu, which every derived-view render holds.
	d    *derivedCache
	disk mirror.Mirror    // the derived files on disk, as last written or checked
	man  manifest.Encoder // the manifest's lines, encoded again only for the files that changed
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
	saved    *viewcache.Store // the first render's fragments from disk; nil after it

	coreGen  int // bumped whenever topics/core.md's render input changes
	core     []byte
	coreRep  result.CoreReport
	coreKey  [2]int // coreGen and budget core was rendered for
	coreDone bool
}

type derivedTopic struct {
	tf      *topicFile
	trusted []bool
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
	if e.inc.d == nil { // a first render merges the fragments an earlier process saved
		e.inc.d = &derivedCache{views: render.NewViewSet(), files: map[string]derivedTopic{}, arch: map[string][]byte{}, saved: viewcache.Load(e.ws.RuntimeDir())}
	}
	dc := e.inc.d
	e.inc.mu.Lock()
	if len(dc.files) > 0 { // a first render renders every file: a one-shot core builds no index
		e.inc.idx.sync(s)
	}
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
	for _, m := range [][2]map[string]bool{{dc.promoted, s.promoted}, {s.promoted, dc.promoted}} { // promoted or no longer
		for id := range m[0] {
			if !m[1][id] {
				deps.AddKeys(dirty, e.inc.idx.Citing(id))
			}
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
		dc.saved.Set(dc.views, p, tf.data, trusted, func() render.Topic { return renderTopicTrusted(tf, trusted) })
		dc.files[p] = derivedTopic{tf: tf, trusted: trusted}
		dc.bumpCore(p)
	}
	dc.saved = dc.saved.Finish(dc.views)
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
	if s.trustOnly { // a cold core's read: rendered whole (lighter), leaving no fragments
		return e.derivedFiles(s)
	}
	dc := e.updateDerivedCache(s)
	budget := e.Config().Memory.Core.Budget
	if key := [2]int{dc.coreGen, budget}; !dc.coreDone || dc.coreKey != key {
		t := render.Topic{Path: coreTopicPath}
		if dt, ok := dc.files[coreTopicPath]; ok {
			t = renderTopicTrusted(dt.tf, dt.trusted)
		}
		out, rep := render.Core(t, budget)
		rep.Included, rep.Excluded, rep.Pending = records.NonNil(rep.Included), records.NonNil(rep.Excluded), records.NonNil(rep.Pending)
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
