package recall

import (
	"context"
	"errors"
	"slices"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Block is one trusted block as memory holds it.
type Block struct {
	ID      string
	Path    string // topics/…
	Heading string // the nearest heading above the block; "" when none
	// Level is Heading's (1 a file's title, which names the whole file;
	// 2 and below a part of it, as a person's "## Work").
	Level int
	Text  string // topic.BlockText: footnote markers still in it
	// Date is the latest date its footnotes give (YYYY-MM-DD); "" when it
	// cites nothing.
	Date  string
	Cites []string // the source-ids its footnotes cite
}

// Hit is one search hit; Block is a topic hit's block (nil when the file
// no longer holds it trusted).
type Hit struct {
	result.SearchResult
	Block *Block
}

// material is what a recall can choose from.
type material struct {
	Core   []Block            // topics/core.md's trusted blocks, in order
	Topics map[string][]Block // per wanted topic file that exists
	Hits   []Hit              // in rank order
}

const coreTopic = "topics/core.md"

// read searches for text, then reads the wanted topic files and the
// topic files holding a hit (engine.TrustedTopics: only those, with which
// of their blocks are trusted) and takes the blocks out of them.
func read(ctx context.Context, e *engine.Engine, text string, limit int, topics []string) (material, error) {
	m := material{Topics: map[string][]Block{}}
	if err := e.Authorize(trust.OpSearch); err != nil {
		return m, err
	}
	var hits []result.SearchResult
	if text != "" {
		var err error
		hits, err = e.Search(ctx, result.SearchQuery{Text: text, Limit: limit})
		// A prompt that is no query at all (only symbols, say) recalls
		// nothing rather than failing the turn.
		var ee *errcode.Error
		if errors.As(err, &ee) && ee.Code == errcode.InvalidArgument {
			hits, err = nil, nil
		}
		if err != nil {
			return m, err
		}
	}
	paths := append([]string{coreTopic}, topics...)
	for _, h := range hits {
		if h.Kind == "topic" {
			paths = append(paths, h.Path)
		}
	}
	files, err := e.TrustedTopics(ctx, paths)
	if err != nil {
		return m, err
	}
	// Each file's blocks are taken out in one pass (blocksIn), however many
	// of them the recall shows (core.md's every block, each hit's one), and
	// kept with the file while a long-lived engine's snapshot stands
	// (blocksOf).
	blocks := func(p string, rf *engine.RecallFile) map[string]Block { return blocksOf(p, rf).byID }
	for _, p := range append([]string{coreTopic}, topics...) {
		rf := files[p]
		if rf == nil {
			continue
		}
		// Shared with the memo: a recall only reads it (clipped, so an
		// append would copy).
		m.Topics[p] = slices.Clip(blocksOf(p, rf).order)
	}
	m.Core = m.Topics[coreTopic]
	delete(m.Topics, coreTopic)
	for _, h := range hits {
		rh := Hit{SearchResult: h}
		if h.Kind == "topic" {
			// The search and the read are two looks at the files: a block
			// gone (or no longer trusted) in between is left out.
			rf := files[h.Path]
			if rf == nil {
				continue
			}
			b, ok := blocks(h.Path, rf)[h.Ref]
			if !ok {
				continue
			}
			rh.Block = &b
		}
		m.Hits = append(m.Hits, rh)
	}
	return m, nil
}

// blocksIn is every trusted block of a file as recall shows it, by id:
// the first block of each id, with its heading, date and citations. One
// pass with the footnotes read once; a look-up per block, each scanning
// the file and reading its footnotes again, was 6% of a served recall at
// 100k records (BENCHMARKS.md, the resident prompt path).
func blocksIn(p string, rf *engine.RecallFile) map[string]Block {
	out := map[string]Block{}
	heading, level := "", 0
	defs := rf.File.Definitions()
	for _, el := range rf.File.Elements {
		if el.Kind == topic.KindHeading {
			heading, level = el.Heading, el.Level
			continue
		}
		if el.Kind != topic.KindBlock || !rf.Trusted[el.BlockID] {
			continue
		}
		if _, seen := out[el.BlockID]; seen {
			continue
		}
		b := Block{ID: el.BlockID, Path: p, Heading: heading, Level: level, Text: topic.BlockText(el)}
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
		out[el.BlockID] = b
	}
	return out
}
