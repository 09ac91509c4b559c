package engine

import (
	"bytes"
	"slices"
	"strings"

	"scriptorium/workspace/archive"
)

// The dependency index says, for a snapshot, which topic files depend on
// which workspace paths and source-ids, who holds each block id and which
// archives hold each source-id. It is kept in step with the engine's
// snapshots by comparing them file by file (a pointer per topic, the
// bytes' identity per archive), so bringing it up to date costs what
// changed. Incremental derived views (derived_cache.go) and validation
// (verify_incr.go) use it to find the files a change can affect.

// topicDeps is what one parsed topic file's trust and violations depend on.
type topicDeps struct {
	blocks  []blockCites // per block of file.Blocks(), for trust
	targets []string     // distinct workspace paths its citations and links resolve to, itself excluded
	refs    []string     // distinct source-ids its definitions cite (as citedSources reads them)
	ids     []string     // distinct block ids
}

// blockCites is one block's citations, resolved to anchor keys.
type blockCites struct {
	defined bool     // every footnote reference has a definition
	keys    []string // "path#anchor" of each citation, as resolveCitation looks it up
	refs    []string // the source-id each citation names
}

// adopt gives tf, a fresh parse of the same bytes at the same path as
// old, old's dependencies and render blocks instead of building them again.
func (tf *topicFile) adopt(old *topicFile) {
	tf.depOnce.Do(func() { tf.dep = old.deps() })
	tf.blocksOnce.Do(func() { tf.blocks = old.renderBlocks() })
}

// deps returns tf's dependencies, built on first use.
func (tf *topicFile) deps() *topicDeps {
	tf.depOnce.Do(func() {
		d := &topicDeps{}
		defs := tf.definitions()
		targets, refs, ids := map[string]bool{}, map[string]bool{}, map[string]bool{}
		for _, b := range tf.file.Blocks() {
			bc := blockCites{defined: true}
			for _, r := range b.Refs {
				def, ok := defs[r.Label]
				if !ok {
					bc.defined = false
					break
				}
				for _, c := range def.Sources {
					bc.keys = append(bc.keys, resolveRel(tf.path, c.Path)+"#"+c.Anchor)
					bc.refs = append(bc.refs, c.SourceID)
				}
			}
			d.blocks = append(d.blocks, bc)
			ids[b.BlockID] = true
		}
		for _, def := range defs {
			for _, c := range def.Sources {
				refs[c.SourceID] = true
			}
		}
		for _, e := range tf.file.Elements {
			if e.Def != nil {
				for _, c := range e.Def.Sources {
					targets[resolveRel(tf.path, c.Path)] = true
				}
			}
			for _, l := range e.Links {
				if l.Path != "" {
					targets[resolveRel(tf.path, l.Path)] = true
				}
			}
		}
		delete(targets, tf.path)
		d.targets, d.refs, d.ids = sortedKeys(targets), sortedKeys(refs), sortedKeys(ids)
		tf.dep = d
	})
	return tf.dep
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// trustedBlocks resolves the trust of every block of tf against s, as
// blockTrusted does, from the file's resolved citations.
func (s *snapshot) trustedBlocks(tf *topicFile) []bool {
	d := tf.deps()
	out := make([]bool, len(d.blocks))
	for i, bc := range d.blocks {
		ok := bc.defined
		for j := 0; ok && j < len(bc.keys); j++ {
			e := s.anchors[bc.keys[j]]
			ok = e != nil && e.view.Ref == bc.refs[j] && !e.pending()
		}
		out[i] = ok
	}
	return out
}

// depIndex is the dependency index of one snapshot (see the top of the
// file). The zero value is empty; sync brings it to a snapshot.
type depIndex struct {
	topics   map[string]*topicFile
	archives map[string][]byte              // archive path → the bytes it was indexed from
	archRefs map[string][]string            // v2 archive path → distinct source-ids of its frames
	citers   map[string]map[string]int      // workspace path → topic paths whose citations or links reach it
	refCite  map[string]map[string]int      // source-id → topic paths citing it
	idHold   map[string]map[string]int      // block id → topic paths holding it
	refHold  map[string]map[string]struct{} // source-id → v2 archive paths holding a frame of it
}

// sameBytes reports whether a and b are the same bytes in memory: a
// snapshot shares an unchanged file's bytes with the one it came from.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// syncChanges is what sync found changed, by path.
type syncChanges struct {
	topics, archives []string
}

// sync brings the index to s and reports the files that differ from the
// snapshot it was at before.
func (x *depIndex) sync(s *snapshot) syncChanges {
	if x.topics == nil {
		*x = depIndex{topics: map[string]*topicFile{}, archives: map[string][]byte{}, archRefs: map[string][]string{},
			citers: map[string]map[string]int{}, refCite: map[string]map[string]int{}, idHold: map[string]map[string]int{},
			refHold: map[string]map[string]struct{}{}}
	}
	var ch syncChanges
	topics, archives := map[string]bool{}, map[string]bool{}
	for p, tf := range x.topics {
		cur := s.topics[p]
		switch {
		case cur == tf:
		case cur != nil && bytes.Equal(cur.data, tf.data):
			// The same bytes parsed again (a reload after an install):
			// same dependencies, nothing to re-index.
			cur.adopt(tf)
			x.topics[p] = cur
		default:
			x.dropTopic(p, tf)
			topics[p] = true
		}
	}
	for _, p := range s.topicPaths {
		if tf := s.topics[p]; x.topics[p] != tf {
			x.addTopic(p, tf)
			topics[p] = true
		}
	}
	for p, data := range x.archives {
		if a, ok := s.archives[p]; !ok || !sameBytes(a.data, data) {
			x.dropArchive(p)
			archives[p] = true
		}
	}
	for _, p := range s.archPaths {
		if _, ok := x.archives[p]; !ok {
			x.addArchive(s.archives[p])
			archives[p] = true
		}
	}
	ch.topics, ch.archives = sortedKeys(topics), sortedKeys(archives)
	return ch
}

func (x *depIndex) addTopic(p string, tf *topicFile) {
	x.topics[p] = tf
	d := tf.deps()
	for _, t := range d.targets {
		bump(x.citers, t, p, 1)
	}
	for _, r := range d.refs {
		bump(x.refCite, r, p, 1)
	}
	for _, id := range d.ids {
		bump(x.idHold, id, p, 1)
	}
}

func (x *depIndex) dropTopic(p string, tf *topicFile) {
	delete(x.topics, p)
	d := tf.deps()
	for _, t := range d.targets {
		bump(x.citers, t, p, -1)
	}
	for _, r := range d.refs {
		bump(x.refCite, r, p, -1)
	}
	for _, id := range d.ids {
		bump(x.idHold, id, p, -1)
	}
}

func (x *depIndex) addArchive(a *archiveFile) {
	x.archives[a.path] = a.data
	if a.legacy {
		return
	}
	refs := frameRefs(a.frames)
	x.archRefs[a.path] = refs
	for _, r := range refs {
		if x.refHold[r] == nil {
			x.refHold[r] = map[string]struct{}{}
		}
		x.refHold[r][a.path] = struct{}{}
	}
}

func (x *depIndex) dropArchive(p string) {
	delete(x.archives, p)
	for _, r := range x.archRefs[p] {
		delete(x.refHold[r], p)
		if len(x.refHold[r]) == 0 {
			delete(x.refHold, r)
		}
	}
	delete(x.archRefs, p)
}

// frameRefs returns the distinct source-ids of frames.
func frameRefs(frames []archive.Frame) []string {
	set := make(map[string]bool, len(frames))
	for _, f := range frames {
		set[f.SourceID] = true
	}
	return sortedKeys(set)
}

func bump(m map[string]map[string]int, k, v string, by int) {
	if m[k] == nil {
		m[k] = map[string]int{}
	}
	if m[k][v] += by; m[k][v] <= 0 {
		delete(m[k], v)
		if len(m[k]) == 0 {
			delete(m, k)
		}
	}
}

// addKeys adds the keys of m to set.
func addKeys[V any](set map[string]bool, m map[string]V) {
	for k := range m {
		set[k] = true
	}
}

// isTopicPath reports whether a changed path is a topic (not an archive).
func isTopicPath(p string) bool { return strings.HasPrefix(p, "topics/") }
