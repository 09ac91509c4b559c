package engine

import (
	"maps"
	"sort"
	"strings"
	"time"

	"scriptorium/engine/index"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/topic"
)

// Corpus is the search service's read of one snapshot: the documents it
// holds (trusted blocks and visible records only, so pending content never
// reaches the index or an embedder), the fingerprint and signatures of
// its files, and the text of a hit. Two Corpus values are equal when they
// read the same snapshot.
type Corpus struct {
	s    *snapshot
	root string
}

// Fingerprint summarises every memory file's path and signature and the
// promotion ledger (see fingerprint).
func (c Corpus) Fingerprint() string { return c.s.fingerprint(c.root) }

// Content is a file's bytes as the snapshot holds them.
func (c Corpus) Content(p string) ([]byte, bool) { return c.s.snapshotContent(p) }

// TopicPaths lists the topic files, sorted.
func (c Corpus) TopicPaths() []string { return c.s.topicPaths }

// ArchivePaths lists the source archives, sorted.
func (c Corpus) ArchivePaths() []string { return c.s.archPaths }

// Files is how many memory files the snapshot holds.
func (c Corpus) Files() int { return len(c.s.topicPaths) + len(c.s.archPaths) }

// Docs is every searchable document, sorted by id.
func (c Corpus) Docs() []index.Doc {
	docs := c.s.docsOf()
	list := make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		list = append(list, d)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
	return list
}

// DocMap is every searchable document by id.
func (c Corpus) DocMap() map[string]index.Doc { return c.s.docsOf() }

// Touched is the documents of before and c that the change between them
// can have touched (touchedDocs).
func (c Corpus) Touched(before Corpus) (old, cur map[string]index.Doc) {
	return touchedDocs(before.s, c.s)
}

// Meta is the index meta written with every build or update from c: its
// fingerprint and its racy files.
func (c Corpus) Meta(now time.Time) map[string]string {
	return map[string]string{index.FingerprintKey: c.Fingerprint(), index.RacyKey: c.s.racyFiles(now)}
}

// Sig is the signature file p was read with; zero for a file written by
// a transaction in memory or read through a stage (it is racy).
func (c Corpus) Sig(p string) (manifest.Sig, bool) {
	if tf, ok := c.s.topics[p]; ok {
		return toManifestSig(tf.sig), true
	}
	if a, ok := c.s.archives[p]; ok {
		return toManifestSig(a.sig), true
	}
	return manifest.Sig{}, false
}

// Promoted is the set of promoted source-ids; it must not be modified.
func (c Corpus) Promoted() map[string]bool { return c.s.promoted }

// Racy reports whether file p of c is racy at now: changed so shortly
// before that its signature cannot be trusted, so its hash is recorded.
func (c Corpus) Racy(p string, now time.Time) bool {
	if tf, ok := c.s.topics[p]; ok {
		return tf.sig.racy(now)
	}
	if a, ok := c.s.archives[p]; ok {
		return a.sig.racy(now)
	}
	return false
}

// Resync is the batch that re-indexes the changed files and the documents
// elsewhere they (or the promotions of refs) can affect: old are the
// documents the index holds of the changed files.
func (c Corpus) Resync(changed []string, refs map[string]bool, old []index.DocRef) (upserts []index.Doc, deletes []string) {
	s := c.s
	refs = maps.Clone(refs)
	if refs == nil {
		refs = map[string]bool{}
	}
	changedArch := map[string]bool{}
	changedTopic := map[string]bool{}
	for _, p := range changed {
		if strings.HasPrefix(p, "topics/") {
			changedTopic[p] = true
			continue
		}
		changedArch[p] = true
		if a, ok := s.archives[p]; ok {
			for _, src := range a.sources {
				refs[src.view.Ref] = true
			}
		}
	}
	candidates := map[string]bool{}
	for _, d := range old {
		candidates[d.ID] = true
		if d.Kind == index.KindSource {
			refs[d.Ref] = true // another archive's record of it may be preferred now
		}
	}
	docs := map[string]index.Doc{}
	for p := range changedArch {
		if a, ok := s.archives[p]; ok {
			for _, src := range a.sources {
				s.addSourceDoc(docs, src)
			}
		}
	}
	if len(refs) > 0 {
		for _, p := range s.archPaths {
			for _, src := range s.archives[p].sources {
				if !refs[src.view.Ref] {
					continue
				}
				candidates["source:"+src.view.Path+"#"+src.view.Anchor] = true
				s.addSourceDoc(docs, src)
				// The next turn holds this one as its context.
				if _, next := s.neighbours(src); next != nil {
					s.addSourceDoc(docs, next)
				}
			}
		}
	}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		if changedTopic[p] {
			s.addTopicDocs(docs, tf, nil)
			continue
		}
		if only := tf.blocksCiting(changedArch, refs); len(only) > 0 {
			for id := range only {
				candidates["topic:"+p+"#^"+id] = true
			}
			s.addTopicDocs(docs, tf, only)
		}
	}
	upserts = make([]index.Doc, 0, len(docs))
	for _, d := range docs {
		upserts = append(upserts, d)
	}
	sort.Slice(upserts, func(i, j int) bool { return upserts[i].ID < upserts[j].ID })
	for id := range candidates {
		if _, ok := docs[id]; !ok {
			deletes = append(deletes, id)
		}
	}
	sort.Strings(deletes)
	return upserts, deletes
}

// BlocksCiting counts the blocks of topic file p that cite one of the
// archives or source-ids given (what a change of those re-indexes).
func (c Corpus) BlocksCiting(p string, archives, refs map[string]bool) int {
	if tf, ok := c.s.topics[p]; ok {
		return len(tf.blocksCiting(archives, refs))
	}
	return 0
}

// Holds reports whether the snapshot still has the document of a hit: a
// trusted block of that id in that file, or the visible record at that
// anchor with that source-id (what a stale index's answer keeps).
func (c Corpus) Holds(h index.Hit) bool {
	s := c.s
	if h.Kind == index.KindSource {
		src, ok := s.anchors[h.Path+"#"+h.Anchor]
		return ok && src.view.Ref == h.Ref && s.visible(src)
	}
	tf, ok := s.topics[h.Path]
	if !ok {
		return false
	}
	b, ok := tf.file.Block(h.Ref)
	return ok && s.blockTrusted(tf, b)
}

// HitText is the text of a hit's document in the snapshot (the index
// stores no text), for its snippet.
func (c Corpus) HitText(h index.Hit) string {
	s := c.s
	if h.Kind == index.KindSource {
		// The record indexed is the one preferred for its source-id (the
		// first of duplicates), which the anchor map may not be.
		if src, ok := s.sources[h.Ref]; ok && src.view.Path == h.Path && src.view.Anchor == h.Anchor {
			return src.view.Content
		}
		if src, ok := s.anchors[h.Path+"#"+h.Anchor]; ok {
			return src.view.Content
		}
		return ""
	}
	if tf, ok := s.topics[h.Path]; ok {
		if b, ok := tf.file.Block(h.Ref); ok {
			return topic.BlockText(b)
		}
	}
	return ""
}

// Root is the workspace directory the files are read from.
func (c Corpus) Root() string { return c.root }
