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
// source-id such an archive holds or whose promotion changed (and the
// turns after it whose context can hold it: followers), every block of a
// changed topic file, and the blocks elsewhere that cite a changed archive
// or one of those source-ids (their trust or their context may have
// changed). The rest of the index is left alone, so an install costs what
// it changed, not the whole workspace.

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
	// Both sides build the same documents: the followers of either.
	refs = followers(after, followers(before, refs, changedArch), changedArch)
	build := func(c engine.Corpus) map[string]index.Doc {
		docs := map[string]index.Doc{}
		for p := range changedArch {
			for r := range c.Records(p) {
				addSourceDoc(docs, r)
			}
		}
		for ref := range refs {
			if r, ok := c.Source(ref); ok && !changedArch[r.Path()] {
				addSourceDoc(docs, r)
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
	refs = followers(c, refs, changedArch)
	if len(refs) > 0 {
		for _, p := range c.ArchivePaths() {
			for r := range c.Records(p) {
				if refs[r.Ref()] {
					candidates["source:"+r.Path()+"#"+r.Anchor()] = true
					addSourceDoc(docs, r)
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

// followers returns refs with the source-ids of the contextReach visible
// turns after each one's record in c, whose context (turnBefore) can hold
// it: if it stopped being trusted, its text must leave their documents,
// and the documents of the blocks citing them. The records of a changed
// archive are left out (every record of it is re-indexed, and so is every
// block citing it); walking on from each of a long chat's pending records
// was quadratic in the chat. A turn whose window held a changed record is
// reached from the last changed record before it, past which nothing
// moved, so contextReach steps in one snapshot are enough.
func followers(c engine.Corpus, refs, changedArch map[string]bool) map[string]bool {
	out := maps.Clone(refs)
	if out == nil {
		out = map[string]bool{}
	}
	for ref := range refs {
		r, ok := c.Source(ref)
		if !ok || changedArch[r.Path()] {
			continue
		}
		for i := 0; i < contextReach; i++ {
			if r, ok = r.After(); !ok {
				break
			}
			out[r.Ref()] = true
		}
	}
	return out
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
