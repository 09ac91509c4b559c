package search

import (
	"maps"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/workspace/topic"
)

// An install or a resync re-indexes only what a change can have touched:
// every record of a changed archive, the preferred record of every
// source-id such an archive holds or whose promotion changed (and the next
// turn, which holds it as its context), every block of a changed topic
// file, and the blocks elsewhere that cite a changed archive or such a
// source-id (their trust may have flipped). The rest of the index is left
// alone, so an install costs what it changed, not the whole workspace.

// IndexChanges returns the documents of before and after that the change
// between them can have touched, as each holds them.
func IndexChanges(before, after engine.Corpus) (old, cur map[string]index.Doc) {
	changedArch, refs := map[string]bool{}, map[string]bool{}
	changedTopic := map[string]bool{}
	for _, pair := range [][2]engine.Corpus{{before, after}, {after, before}} {
		a, b := pair[0], pair[1]
		for _, p := range a.ArchivePaths() {
			if !a.SameArchive(b, p) {
				changedArch[p] = true
				for r := range a.Records(p) {
					refs[r.Ref()] = true
				}
			}
		}
		for id := range a.Promoted() {
			if !b.Promoted()[id] {
				refs[id] = true
			}
		}
		for _, p := range a.TopicPaths() {
			if !a.SameTopic(b, p) {
				changedTopic[p] = true
			}
		}
	}
	build := func(c engine.Corpus) map[string]index.Doc {
		docs := map[string]index.Doc{}
		for p := range changedArch {
			for r := range c.Records(p) {
				addSourceDoc(docs, r)
			}
		}
		for ref := range refs {
			if r, ok := c.Source(ref); ok && !changedArch[r.Path()] {
				// A record of a changed archive, its neighbour included, is
				// built above; finding the neighbour of each of a long
				// chat's pending records was quadratic in the chat.
				addWithNext(docs, r)
			}
		}
		addCitingDocs(c, docs, changedTopic, changedArch, refs, nil)
		withFrames(c, docs)
		return docs
	}
	return build(before), build(after)
}

// resync is the batch that re-indexes the changed files of c and the
// documents elsewhere they (or the promotions of refs) can affect: old
// are the documents the index holds of the changed files.
func resync(c engine.Corpus, changed []string, refs map[string]bool, old []index.DocRef) (upserts []index.Doc, deletes []string) {
	refs = maps.Clone(refs)
	if refs == nil {
		refs = map[string]bool{}
	}
	changedArch, changedTopic := map[string]bool{}, map[string]bool{}
	for _, p := range changed {
		if strings.HasPrefix(p, "topics/") {
			changedTopic[p] = true
			continue
		}
		changedArch[p] = true
		for r := range c.Records(p) {
			refs[r.Ref()] = true
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
		for r := range c.Records(p) {
			addSourceDoc(docs, r)
		}
	}
	if len(refs) > 0 {
		for _, p := range c.ArchivePaths() {
			for r := range c.Records(p) {
				if refs[r.Ref()] {
					candidates["source:"+r.Path()+"#"+r.Anchor()] = true
					addWithNext(docs, r)
				}
			}
		}
	}
	addCitingDocs(c, docs, changedTopic, changedArch, refs, candidates)
	withFrames(c, docs)
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

// addWithNext adds a record's document and the next turn's, which holds
// it as its context: if r stopped being trusted, its text must leave
// there too.
func addWithNext(docs map[string]index.Doc, r engine.Record) {
	addSourceDoc(docs, r)
	if next, ok := r.After(); ok {
		addSourceDoc(docs, next)
	}
}

// addCitingDocs adds the documents of every block of a changed topic file
// and of the blocks elsewhere that cite a changed archive or one of refs;
// the ids of the latter go into candidates when it is set (a block no
// longer trusted is deleted).
func addCitingDocs(c engine.Corpus, docs map[string]index.Doc, changedTopic, changedArch, refs, candidates map[string]bool) {
	for _, p := range c.TopicPaths() {
		t, _ := c.Topic(p)
		if changedTopic[p] {
			addTopicDocs(c, docs, t, nil)
			continue
		}
		if !mayCite(t, changedArch, refs) {
			continue // its dependencies name none of them: no block to scan
		}
		if only := blocksCiting(t, changedArch, refs); len(only) > 0 {
			if candidates != nil {
				for id := range only {
					candidates["topic:"+p+"#^"+id] = true
				}
			}
			addTopicDocs(c, docs, t, only)
		}
	}
}

// mayCite reports whether a topic file's citations or links reach one of
// the archives or cite one of the source-ids given, from its dependencies
// (built once per parse and shared between snapshots), so that only those
// files' blocks are scanned, not every file's of the workspace.
func mayCite(t engine.TopicFile, archives, refs map[string]bool) bool {
	d := t.Deps()
	for _, p := range d.Targets {
		if archives[p] {
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
func blocksCiting(t engine.TopicFile, archives, refs map[string]bool) map[string]bool {
	var out map[string]bool
	defs := t.Definitions()
	for _, b := range t.File().Blocks() {
		for _, r := range b.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			for _, c := range d.Sources {
				if refs[c.SourceID] || archives[topic.ResolvePath(t.Path(), c.Path)] {
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
