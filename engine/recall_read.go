package engine

import (
	"context"
	"errors"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// RecallQuery is what one recall reads.
type RecallQuery struct {
	Text  string // the search text; "" searches nothing
	Limit int
	// Topics are topic files wanted whole (core.md, the project's file).
	Topics []string
}

// RecallFile is a topic file as a recall reads it: parsed, with the ids
// of its blocks that are trusted (for a file holding hits, at least the
// hits' blocks).
type RecallFile struct {
	File    *topic.File
	Trusted map[string]bool
}

// RecallMaterial is what a recall can choose from: the search hits in
// rank order, and the wanted topic files that exist and the topic files
// holding a hit, by path.
type RecallMaterial struct {
	Hits  []result.SearchResult
	Files map[string]*RecallFile
}

// RecallRead reads what a recall for q needs and no more. A cold engine
// takes the hits from a fresh index and asks the same index which blocks
// of the wanted files are trusted (it holds exactly the trusted blocks),
// reading those files and the hit files alone; anything else (a warm or
// long-lived engine, a stale or damaged index, files changing under the
// read) goes through the snapshot, which checks every citation itself.
func (e *Engine) RecallRead(ctx context.Context, q RecallQuery) (RecallMaterial, error) {
	out := RecallMaterial{Files: map[string]*RecallFile{}}
	if err := e.gate(trust.OpSearch); err != nil {
		return out, err
	}
	if q.Text != "" {
		var err error
		out.Hits, err = e.Search(ctx, result.SearchQuery{Text: q.Text, Limit: q.Limit})
		// A prompt that is no query at all (only symbols, say) recalls
		// nothing rather than failing the turn.
		var ee *errcode.Error
		if errors.As(err, &ee) && ee.Code == errcode.InvalidArgument {
			out.Hits, err = nil, nil
		}
		if err != nil {
			return out, err
		}
	}
	paths := append([]string{}, q.Topics...)
	for _, h := range out.Hits {
		if h.Kind == "topic" {
			paths = append(paths, h.Path)
		}
	}
	if !e.warm() && !e.opts.LongLived {
		if files, ok := e.recallFromIndex(ctx, paths); ok {
			out.Files = files
			return out, nil
		}
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return out, err
	}
	for _, p := range paths {
		tf, ok := s.topics[p]
		if !ok || out.Files[p] != nil {
			continue
		}
		rf := &RecallFile{File: tf.file, Trusted: map[string]bool{}}
		for _, b := range tf.file.Blocks() {
			if _, seen := rf.Trusted[b.BlockID]; !seen {
				rf.Trusted[b.BlockID] = s.blockTrusted(tf, b) // the first of an id, as a get reads it
			}
		}
		out.Files[p] = rf
	}
	return out, nil
}

// recallFromIndex reads the topic files named when the index is a fresh
// build of the files on disk (the search service's RecallFiles: the
// index's documents of a file are then exactly its trusted blocks); ok is
// false otherwise.
func (e *Engine) recallFromIndex(ctx context.Context, paths []string) (map[string]*RecallFile, bool) {
	sv := searcher()
	if sv == nil {
		return nil, false
	}
	files, ok := sv.RecallFiles(ctx, e, paths)
	if ok {
		e.recallIndexReads.Add(1)
	}
	return files, ok
}
