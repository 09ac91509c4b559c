package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"scriptorium/engine/result"
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
		var ee *Error
		if errors.As(err, &ee) && ee.Code == CodeInvalidArgument {
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
// build of the files on disk, each file only if it is still the version
// the stat walk saw: the index's documents of a file are then exactly its
// trusted blocks. ok is false otherwise, or when a file repeats a block id
// (the index keeps one document per id, a read takes the first block).
func (e *Engine) recallFromIndex(ctx context.Context, paths []string) (map[string]*RecallFile, bool) {
	promoted, err := e.ledger.Promoted(ctx)
	if err != nil {
		return nil, false
	}
	root := e.ws.Root()
	listed, fp, ok := listFingerprint(root, promoted)
	if !ok {
		return nil, false
	}
	ix, err := e.openReadOnly()
	if err != nil {
		return nil, false
	}
	defer ix.Close()
	if !indexDescribes(ix, fp, diskContent(root)) {
		return nil, false
	}
	files := map[string]*RecallFile{}
	var present []string
	for _, p := range paths {
		want, ok := listed[p]
		if !ok || files[p] != nil || !strings.HasPrefix(p, "topics/") {
			continue // not there (the project may have no file yet)
		}
		data, ok := readIfSig(filepath.Join(root, filepath.FromSlash(p)), want)
		if !ok {
			return nil, false
		}
		f, _ := topic.Parse(data)
		files[p] = &RecallFile{File: f, Trusted: map[string]bool{}}
		seen := map[string]bool{}
		for _, b := range f.Blocks() {
			if seen[b.BlockID] {
				return nil, false
			}
			seen[b.BlockID] = true
		}
		present = append(present, p)
	}
	ids, err := ix.DocIDsIn(present)
	if err != nil {
		return nil, false
	}
	for _, d := range ids { // "topic:<path>#^<id>" (addTopicDocs)
		p, id, ok := strings.Cut(strings.TrimPrefix(d, "topic:"), "#^")
		if rf := files[p]; ok && rf != nil && strings.HasPrefix(d, "topic:") {
			rf.Trusted[id] = true
		}
	}
	e.recallIndexReads.Add(1)
	return files, true
}
