package search

import (
	"context"
	"path/filepath"
	"strings"

	"scriptorium/engine"
	"scriptorium/workspace/manifest"
	"scriptorium/workspace/topic"
)

// RecallFiles implements engine.Searcher for a cold recall: it reads the
// topic files named when the index is a fresh build of the files on disk,
// each file only if it is still the version the stat walk saw: the
// index's documents of a file are then exactly its trusted blocks. ok is
// false otherwise, or when a file repeats a block id (the index keeps one
// document per id, a read takes the first block). The walk and the index
// are the recall's search's when it answered from them (kept.go), so hits
// and trust describe the same versions; otherwise it walks and opens now.
func (service) RecallFiles(ctx context.Context, e *engine.Engine, paths []string) (map[string]*engine.RecallFile, bool) {
	st := stateOf(e)
	r := st.kept.take()
	if r == nil {
		var ok bool
		if r, ok = walkFresh(ctx, e, st); !ok {
			return nil, false
		}
	}
	defer r.close()
	return recallFiles(e.Root(), r, paths)
}

// walkFresh stats the workspace and opens the index if it describes what
// the walk saw.
func walkFresh(ctx context.Context, e *engine.Engine, st *state) (*freshRead, bool) {
	promoted, err := e.Records().Promoted(ctx)
	if err != nil {
		return nil, false
	}
	root := e.Root()
	st.walks.Add(1)
	listed, fp, ok := listFingerprint(root, promoted)
	if !ok {
		return nil, false
	}
	ix, err := st.openReadOnly()
	if err != nil {
		return nil, false
	}
	if !ix.Describes(fp, diskContent(root)) {
		_ = ix.Close()
		return nil, false
	}
	return &freshRead{listed: listed, ix: ix}, true
}

func recallFiles(root string, r *freshRead, paths []string) (map[string]*engine.RecallFile, bool) {
	files := map[string]*engine.RecallFile{}
	var present []string
	for _, p := range paths {
		want, ok := r.listed[p]
		if !ok || files[p] != nil || !strings.HasPrefix(p, "topics/") {
			continue // not there (the project may have no file yet)
		}
		f, ok := r.hits.topic(p)
		if !ok {
			data, ok := manifest.ReadIfSig(filepath.Join(root, filepath.FromSlash(p)), want)
			if !ok {
				return nil, false
			}
			f, _ = topic.Parse(data)
		}
		files[p] = &engine.RecallFile{File: f, Trusted: map[string]bool{}}
		seen := map[string]bool{}
		for _, b := range f.Blocks() {
			if seen[b.BlockID] {
				return nil, false
			}
			seen[b.BlockID] = true
		}
		present = append(present, p)
	}
	ids, err := r.ix.DocIDsIn(present)
	if err != nil {
		return nil, false
	}
	for _, d := range ids { // "topic:<path>#^<id>" (the core's addTopicDocs)
		p, id, ok := strings.Cut(strings.TrimPrefix(d, "topic:"), "#^")
		if rf := files[p]; ok && rf != nil && strings.HasPrefix(d, "topic:") {
			rf.Trusted[id] = true
		}
	}
	return files, true
}
