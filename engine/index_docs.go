package engine

import (
	"bytes"
	"time"

	"scriptorium/engine/index"
	"scriptorium/workspace/topic"
)

// The documents a snapshot holds for the search index (engine/search owns
// the index itself): trusted blocks and visible records, each with who said
// it and its context (search_docs.go), and the fingerprint of the files
// they come from.

// docsOf builds every searchable document of a snapshot. Pending sources,
// pending blocks and legacy records shadowed by a v2 frame are not
// documents at all, so no search path can return them.
func (s *snapshot) docsOf() map[string]index.Doc {
	docs := map[string]index.Doc{}
	for _, p := range s.topicPaths {
		s.addTopicDocs(docs, s.topics[p], nil)
	}
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			s.addSourceDoc(docs, src)
		}
	}
	return docs
}

// addTopicDocs adds the documents of a topic file's trusted blocks; with
// only set, just the blocks it names.
func (s *snapshot) addTopicDocs(docs map[string]index.Doc, tf *topicFile, only map[string]bool) {
	defs := tf.file.Definitions()
	for _, b := range tf.file.Blocks() {
		if (only != nil && !only[b.BlockID]) || !s.blockTrusted(tf, b) {
			continue
		}
		d := index.Doc{ID: "topic:" + tf.path + "#^" + b.BlockID, Kind: index.KindTopic, Path: tf.path,
			Anchor: "^" + b.BlockID, Ref: b.BlockID, Text: topic.BlockText(b), Visible: true}
		var cited []string
		for _, r := range b.Refs {
			if def, ok := defs[r.Label]; ok {
				if t, err := time.Parse(time.DateOnly, def.Date); err == nil && t.After(d.Time) {
					d.Time = t
				}
				for _, c := range def.Sources {
					cited = append(cited, c.SourceID)
				}
			}
		}
		d.Who, d.Context = s.blockSources(cited)
		docs[d.ID] = d
	}
}

// addSourceDoc adds a source record's document when it is visible: trusted,
// and the record search prefers for its source-id.
func (s *snapshot) addSourceDoc(docs map[string]index.Doc, src *sourceEntry) {
	v := src.view
	if src.pending() || v.Forgotten || s.sources[v.Ref] != src {
		return
	}
	t, _ := time.Parse(time.RFC3339, v.Time)
	d := index.Doc{ID: "source:" + v.Path + "#" + v.Anchor, Kind: index.KindSource, Path: v.Path, Anchor: v.Anchor,
		Ref: v.Ref, Time: t, Text: v.Content, SpeakerID: v.SpeakerID, SpeakerDisplay: v.SpeakerDisplay,
		SpeakerLabel: v.SpeakerLabel, SpeakerTrusted: v.SpeakerTrusted, Visible: true,
		Who: whoOf(src), Context: s.turnBefore(src)}
	docs[d.ID] = d
}

// touchedDocs builds the documents of before and after, restricted to what
// the change between them can have touched: every record of a changed
// archive, the preferred record of every source-id such an archive holds or
// whose promotion changed, every block of a changed topic file, and the
// blocks elsewhere that cite a changed archive or such a source-id (their
// trust may have flipped). The rest of the index is left alone, so an
// install costs what it changed, not the whole workspace.
func touchedDocs(before, after *snapshot) (old, cur map[string]index.Doc) {
	changedArch := map[string]bool{}
	refs := map[string]bool{}
	for _, pair := range [][2]*snapshot{{before, after}, {after, before}} {
		a, b := pair[0], pair[1]
		for _, p := range a.archPaths {
			if other, ok := b.archives[p]; !ok || !sameParse(a.archives[p], other) {
				changedArch[p] = true
				for _, src := range a.archives[p].sources {
					refs[src.view.Ref] = true
				}
			}
		}
		for id := range a.promoted {
			if !b.promoted[id] {
				refs[id] = true
			}
		}
	}
	changedTopic := map[string]bool{}
	for _, pair := range [][2]*snapshot{{before, after}, {after, before}} {
		for _, p := range pair[0].topicPaths {
			if other, ok := pair[1].topics[p]; !ok || other != pair[0].topics[p] {
				changedTopic[p] = true
			}
		}
	}
	build := func(s *snapshot) map[string]index.Doc {
		docs := map[string]index.Doc{}
		for p := range changedArch {
			if a, ok := s.archives[p]; ok {
				for _, src := range a.sources {
					s.addSourceDoc(docs, src)
				}
			}
		}
		for ref := range refs {
			if src, ok := s.sources[ref]; ok {
				if changedArch[src.file.path] {
					// Its whole archive, the neighbour included, is built
					// above; finding the neighbour of each of a long chat's
					// pending records was quadratic in the chat.
					continue
				}
				s.addSourceDoc(docs, src)
				// The next turn holds this one as its context: if this
				// one stopped being trusted, its text must leave there too.
				if _, after := s.neighbours(src); after != nil {
					s.addSourceDoc(docs, after)
				}
			}
		}
		for _, p := range s.topicPaths {
			tf := s.topics[p]
			if changedTopic[p] {
				s.addTopicDocs(docs, tf, nil)
				continue
			}
			if !tf.mayCite(changedArch, refs) {
				continue // its dependencies name none of them: no block to scan
			}
			if only := tf.blocksCiting(changedArch, refs); len(only) > 0 {
				s.addTopicDocs(docs, tf, only)
			}
		}
		return docs
	}
	return build(before), build(after)
}

// mayCite reports whether a topic file's citations or links reach one of
// the archives or cite one of the source-ids given, from its dependencies
// (built once per parse and shared between snapshots), so that an install
// scans the blocks of only those files, not of every file of the workspace.
func (tf *topicFile) mayCite(archives, refs map[string]bool) bool {
	d := tf.deps()
	for _, t := range d.Targets {
		if archives[t] {
			return true
		}
	}
	for _, r := range d.Refs {
		if refs[r] {
			return true
		}
	}
	return false
}

// blocksCiting names the blocks of a topic file that cite one of the
// archives or source-ids given.
func (tf *topicFile) blocksCiting(archives, refs map[string]bool) map[string]bool {
	var out map[string]bool
	defs := tf.file.Definitions()
	for _, b := range tf.file.Blocks() {
		for _, r := range b.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			for _, c := range d.Sources {
				if refs[c.SourceID] || archives[resolveRel(tf.path, c.Path)] {
					if out == nil {
						out = map[string]bool{}
					}
					out[b.BlockID] = true
				}
			}
		}
	}
	return out
}

// sameParse reports whether two archive values hold the same parse: a file
// re-read or rewritten is parsed into new slices, an unchanged one shares
// them.
func sameParse(a, b *archiveFile) bool {
	if a.legacy != b.legacy || len(a.frames) != len(b.frames) || len(a.records) != len(b.records) || a.stopErr != b.stopErr {
		return false
	}
	if len(a.frames) > 0 {
		return &a.frames[0] == &b.frames[0]
	}
	if len(a.records) > 0 {
		return &a.records[0] == &b.records[0]
	}
	return bytes.Equal(a.data, b.data)
}

// fingerprint summarises everything the index derives from: every memory
// file's path and signature (size, mtime, ctime, inode), and the promotion
// ledger. A hand edit behind the engine's back changes it, so the index is
// brought up to date. Files read from disk carry the signature they were
// read with, so a snapshot's fingerprint describes that snapshot even after
// an install has replaced the files; files a transaction produced in memory
// are stat'ed.
func (s *snapshot) fingerprint(root string) string {
	// A snapshot read from disk has every signature: its fingerprint never
	// changes, and a long-lived engine asks for it on every search.
	if s.fp != nil {
		if fp := s.fp.Load(); fp != nil {
			return *fp
		}
	}
	var lines []fpLine
	for _, p := range s.topicPaths {
		lines = append(lines, fpLine{p, s.topics[p].sig})
	}
	stable := s.fp != nil
	for _, p := range s.archPaths {
		lines = append(lines, fpLine{p, s.archives[p].sig})
	}
	for _, l := range lines {
		stable = stable && l.sig != (fileSig{})
	}
	fp := fingerprintOf(root, lines, s.promoted)
	if stable {
		s.fp.Store(&fp)
	}
	return fp
}

// fpLine is one file of a fingerprint.
type fpLine struct {
	path string
	sig  fileSig
}

// fingerprintOf is index.Fingerprint of the files (topics first, then
// archives, each in path order) and the promoted source-ids.
func fingerprintOf(root string, lines []fpLine, promoted map[string]bool) string {
	files := make([]index.FileSig, len(lines))
	for i, l := range lines {
		files[i] = index.FileSig{Path: l.path, Sig: toManifestSig(l.sig)}
	}
	return index.Fingerprint(root, files, promoted)
}
