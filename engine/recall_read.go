package engine

import (
	"context"
	"errors"

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
	SearchResult
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
	Core   []RecallBlock            // topics/core.md's blocks its render includes, in order
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
	var hits []SearchResult
	if q.Text != "" {
		var err error
		hits, err = e.Search(ctx, SearchQuery{Text: q.Text, Limit: q.Limit})
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
	paths := append([]string{coreTopicPath}, q.Topics...)
	for _, h := range hits {
		if h.Kind == "topic" {
			paths = append(paths, h.Path)
		}
	}
	s, _, ok := e.partial(ctx, func(*partialRead) []string { return paths })
	if !ok {
		var err error
		if s, err = e.snapshot(ctx); err != nil {
			return out, err
		}
	}
	if tf, ok := s.topics[coreTopicPath]; ok {
		_, rep := e.coreRender(s)
		for _, id := range rep.Included {
			if b, ok := s.recallBlock(tf, id); ok {
				out.Core = append(out.Core, b)
			}
		}
	}
	for _, p := range q.Topics {
		tf, ok := s.topics[p]
		if !ok {
			continue
		}
		bs := []RecallBlock{}
		for _, el := range tf.file.Blocks() {
			if b, ok := s.recallBlock(tf, el.BlockID); ok {
				bs = append(bs, b)
			}
		}
		out.Topics[p] = bs
	}
	for _, h := range hits {
		rh := RecallHit{SearchResult: h}
		if h.Kind == "topic" {
			// The search and this read are two looks at the files: a
			// block gone or no longer trusted in between is left out.
			tf, ok := s.topics[h.Path]
			if !ok {
				continue
			}
			b, ok := s.recallBlock(tf, h.Ref)
			if !ok {
				continue
			}
			rh.Block = &b
		}
		out.Hits = append(out.Hits, rh)
	}
	return out, nil
}

// recallBlock is block id of tf as recall reads it; ok is false when the
// file has no such block or the block is not trusted.
func (s *snapshot) recallBlock(tf *topicFile, id string) (RecallBlock, bool) {
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
		if !s.blockTrusted(tf, el) {
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
