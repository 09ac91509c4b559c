package engine

import (
	"context"

	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// RecallFile is a topic file as a read of it alone gives it: parsed, with
// the ids of its trusted blocks (of a repeated id, the first block's).
// It may be shared between calls: read it, never change it.
type RecallFile struct {
	File    *topic.File
	Trusted map[string]bool
}

// TrustedTopics reads the topic files named that exist, each with the ids
// of its trusted blocks: what a recall (engine/recall) chooses blocks from.
// A cold engine asks the search service first: when the index is a fresh
// build of the files on disk it holds exactly their trusted blocks, and
// the files are read alone, no archive parsed. Anything else (a warm or
// long-lived engine, a stale or damaged index, files changing under the
// read) goes through the snapshot, which checks every citation itself.
func (e *Engine) TrustedTopics(ctx context.Context, paths []string) (map[string]*RecallFile, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return nil, err
	}
	if !e.warm() && !e.opts.LongLived {
		if files, ok := e.topicsFromIndex(ctx, paths); ok {
			return files, nil
		}
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]*RecallFile{}
	for _, p := range paths {
		tf, ok := s.topics[p]
		if !ok || out[p] != nil {
			continue
		}
		// A read snapshot never changes (a change is a new one), nor does a
		// block's trust in it: memoised, not resolved again per prompt.
		if memo, ok := s.recall.Load(p); ok {
			out[p] = memo.(*RecallFile)
			continue
		}
		rf := &RecallFile{File: tf.file, Trusted: map[string]bool{}}
		for _, b := range tf.file.Blocks() {
			if _, seen := rf.Trusted[b.BlockID]; !seen {
				rf.Trusted[b.BlockID] = s.blockTrusted(tf, b) // the first of an id, as a get reads it
			}
		}
		s.recall.Store(p, rf)
		out[p] = rf
	}
	return out, nil
}

// topicsFromIndex reads the topic files named when the index is a fresh build
// of the files on disk (then its documents of a file are exactly its trusted
// blocks: the search service's RecallFiles); ok is false otherwise.
func (e *Engine) topicsFromIndex(ctx context.Context, paths []string) (map[string]*RecallFile, bool) {
	sv := searcher()
	if sv == nil {
		return nil, false
	}
	files, ok := sv.RecallFiles(ctx, e, paths)
	if ok {
		e.indexTrustReads.Add(1)
	}
	return files, ok
}
