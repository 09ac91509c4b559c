package engine

import (
	"bytes"
	"strings"

	"scriptorium/engine/depcache"
	"scriptorium/engine/deps"
)

// The dependency index (engine/deps) is kept in step with the engine's
// snapshots by comparing them file by file (a pointer per topic, the
// bytes' identity per archive), so bringing it up to date costs what
// changed. Incremental derived views (derived_cache.go) and validation
// (verify_incr.go) use it to find the files a change can affect.

// adopt gives tf, a fresh parse of the same bytes at the same path as
// old, old's dependencies and render blocks instead of building them again.
func (tf *topicFile) adopt(old *topicFile) {
	tf.depOnce.Do(func() { tf.dep = old.deps() })
	tf.blocksOnce.Do(func() { tf.blocks = old.renderBlocks() })
}

// deps returns tf's dependencies, built on first use.
func (tf *topicFile) deps() *deps.Topic { return tf.depsVia(nil) }

// depsVia is deps, taken from c when an earlier process saved them.
func (tf *topicFile) depsVia(c *depcache.Store) *deps.Topic {
	tf.depOnce.Do(func() { tf.dep = c.Of(tf.path, tf.data, tf.file, tf.definitions) })
	return tf.dep
}

// trustedBlocks resolves the trust of every block of tf against s, as
// blockTrusted does, from the file's resolved citations.
func (s *snapshot) trustedBlocks(tf *topicFile) []bool {
	d := tf.deps()
	out := make([]bool, len(d.Blocks))
	for i, bc := range d.Blocks {
		ok := bc.Defined
		for j := 0; ok && j < len(bc.Keys); j++ {
			i := strings.LastIndexByte(bc.Keys[j], '#')
			e, _ := s.anchorEntry(bc.Keys[j][:max(i, 0)], bc.Keys[j][i+1:])
			ok = e != nil && e.ref == bc.Refs[j] && !e.pending()
		}
		out[i] = ok
	}
	return out
}

// depIndex is the dependency index of one snapshot and the files it was
// built from. The zero value is empty; sync brings it to a snapshot.
type depIndex struct {
	deps.Index
	topics   map[string]*topicFile
	archives map[string][]byte // archive path → the bytes it was indexed from
	at       *snapshot         // the snapshot last synced to: a writer asks per block id
	dir      string            // the runtime directory, where the first sync finds saved dependencies
}

// sameBytes reports whether a and b are the same bytes in memory: a
// snapshot shares an unchanged file's bytes with the one it came from.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// sync brings the index to s.
func (x *depIndex) sync(s *snapshot) {
	var disk *depcache.Store // dependencies an earlier process saved, for the first sync
	if x.at == s {
		return // snapshots never change once built
	} else if x.at = s; x.topics == nil {
		x.topics, x.archives = map[string]*topicFile{}, map[string][]byte{}
		disk = depcache.Load(x.dir)
		defer disk.Finish() // saved again when enough were computed
	}
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
			delete(x.topics, p)
			x.DropTopic(p, tf.deps())
		}
	}
	for _, p := range s.topicPaths {
		if tf := s.topics[p]; x.topics[p] != tf {
			x.topics[p] = tf
			x.AddTopic(p, tf.depsVia(disk))
		}
	}
	for p, data := range x.archives {
		if a, ok := s.archives[p]; !ok || !sameBytes(a.data, data) {
			delete(x.archives, p)
			x.DropArchive(p)
		}
	}
	for _, p := range s.archPaths {
		if _, ok := x.archives[p]; !ok {
			a := s.archives[p]
			if x.archives[p] = a.data; !a.legacy {
				x.AddArchive(p, a.frames)
			}
		}
	}
}

// isTopicPath reports whether a changed path is a topic (not an archive).
func isTopicPath(p string) bool { return strings.HasPrefix(p, "topics/") }
