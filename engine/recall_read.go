package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"scriptorium/engine/result"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// RecallBlock is one trusted block as memory holds it, for the recall
// service (engine/recall) to put in front of an agent.
type RecallBlock struct {
	ID      string
	Path    string // topics/…
	Heading string // the nearest heading above the block; "" when none
	Text    string // topic.BlockText: footnote markers still in it
	// Date is the latest date its footnotes give (YYYY-MM-DD); "" when it
	// cites nothing.
	Date  string
	Cites []string // the source-ids its footnotes cite
}

// RecallHit is one search hit; Block is the hit's block for a topic hit
// (nil when it could not be read back or is not trusted).
type RecallHit struct {
	result.SearchResult
	Block *RecallBlock
}

// RecallQuery is what one recall reads.
type RecallQuery struct {
	Text  string // the search text; "" searches nothing
	Limit int
	// Topics are topic files whose trusted blocks are wanted whole, in
	// file order (the current project's memory).
	Topics []string
}

// RecallMaterial is what a recall can choose from.
type RecallMaterial struct {
	Core   []RecallBlock            // topics/core.md's trusted blocks, in order
	Topics map[string][]RecallBlock // per RecallQuery.Topics path that exists
	Hits   []RecallHit              // in rank order
}

// RecallRead reads what a recall for q needs and no more: the search
// hits (from the index, reading only the hit files when it is fresh), and
// topics/core.md, the wanted topic files and the hit topic files with the
// archives they cite, through the manifest (partial) for a cold engine.
// A long-lived engine has its snapshot in memory and uses it.
func (e *Engine) RecallRead(ctx context.Context, q RecallQuery) (RecallMaterial, error) {
	out := RecallMaterial{Topics: map[string][]RecallBlock{}}
	if err := e.gate(trust.OpSearch); err != nil {
		return out, err
	}
	var hits []result.SearchResult
	if q.Text != "" {
		var err error
		hits, err = e.Search(ctx, result.SearchQuery{Text: q.Text, Limit: q.Limit})
		// A prompt that is no query at all (only symbols, say) recalls
		// nothing rather than failing the turn.
		var ee *Error
		if errors.As(err, &ee) && ee.Code == CodeInvalidArgument {
			hits, err = nil, nil
		}
		if err != nil {
			return out, err
		}
	}
	// core.md and the project's file need their blocks' trust, so their
	// cited archives are read too (few); a hit's trust is the index's,
	// which search just checked against the files, so a hit's topic file
	// is read alone.
	paths := append([]string{coreTopicPath}, q.Topics...)
	q.Topics = append([]string{coreTopicPath}, q.Topics...)
	s, _, ok := e.partial(ctx, func(*partialRead) []string { return paths })
	full := !ok
	if full {
		var err error
		if s, err = e.snapshot(ctx); err != nil {
			return out, err
		}
	}
	for _, p := range q.Topics {
		tf, ok := s.topics[p]
		if !ok {
			continue
		}
		bs := []RecallBlock{}
		for _, el := range tf.file.Blocks() {
			if b, ok := s.recallBlock(tf, el.BlockID, true); ok {
				bs = append(bs, b)
			}
		}
		out.Topics[p] = bs
	}
	// The core's blocks in the owner's order (pinned first): the recall
	// takes them while they fit its budget and memory.core.budget, as
	// the core.md render does; rendering core.md (which counts every
	// block) is not needed for that.
	out.Core = out.Topics[coreTopicPath]
	delete(out.Topics, coreTopicPath)
	hitFiles := map[string]*topicFile{}
	for _, h := range hits {
		rh := RecallHit{SearchResult: h}
		if h.Kind == "topic" {
			// The search and this read are two looks at the files: a
			// block gone (or, where the whole workspace was read, no
			// longer trusted) in between is left out.
			tf, ok := s.topics[h.Path]
			if !ok && !full {
				if _, seen := hitFiles[h.Path]; !seen {
					hitFiles[h.Path] = e.readTopicFile(h.Path)
				}
				tf = hitFiles[h.Path]
			}
			if tf == nil {
				continue
			}
			b, ok := s.recallBlock(tf, h.Ref, full || s.topics[h.Path] == tf)
			if !ok {
				continue
			}
			rh.Block = &b
		}
		out.Hits = append(out.Hits, rh)
	}
	return out, nil
}

// readTopicFile parses one topic file as it is on disk; nil when it cannot
// be read.
func (e *Engine) readTopicFile(p string) *topicFile {
	data, err := os.ReadFile(filepath.Join(e.ws.Root(), filepath.FromSlash(p)))
	if err != nil {
		return nil
	}
	s := &snapshot{topics: map[string]*topicFile{}}
	s.setTopic(p, data)
	return s.topics[p]
}

// recallBlock is block id of tf as recall reads it; ok is false when the
// file has no such block, or checkTrust and the block is not trusted.
func (s *snapshot) recallBlock(tf *topicFile, id string, checkTrust bool) (RecallBlock, bool) {
	heading := ""
	defs := tf.definitions()
	for _, el := range tf.file.Elements {
		if el.Kind == topic.KindHeading {
			heading = el.Heading
			continue
		}
		if el.Kind != topic.KindBlock || el.BlockID != id {
			continue
		}
		if checkTrust && !s.blockTrusted(tf, el) {
			return RecallBlock{}, false
		}
		b := RecallBlock{ID: id, Path: tf.path, Heading: heading, Text: topic.BlockText(el)}
		for _, r := range el.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			b.Date = max(b.Date, d.Date)
			for _, c := range d.Sources {
				b.Cites = append(b.Cites, c.SourceID)
			}
		}
		return b, true
	}
	return RecallBlock{}, false
}
