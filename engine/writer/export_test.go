package writer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// WriteTurnBlocks is Write with the old offline writer, one block per
// turn ("label: text[^e-…] ^id"): the memory `write --redistill` turns
// into distilled topics, which tests need to make.
func WriteTurnBlocks(ctx context.Context, e *engine.Engine, opts WriteOptions) (WriteResult, error) {
	if err := e.Authorize(trust.OpWrite); err != nil {
		return WriteResult{}, err
	}
	w := newWriter(e)
	w.turnBlocks = turnBlockEdits
	return w.write(ctx, opts)
}

// turnBlockEdits is the old offline writer: each record becomes
// one cited block in a topic chosen by speaker (people/<name>.md) or, for
// speakerless records, by thread (threads/<provider>-<thread>.md). The
// result is a valid transaction without any network.
func turnBlockEdits(e *engine.Engine, v *engine.View, recs []distillRecord) []result.Edit {
	type pending struct {
		title string
		parts []string
	}
	byPath := map[string]*pending{}
	var order []string
	used := takenIDs{taken: e.BlockIDTaken(v), batch: map[string]bool{}}
	for _, r := range recs {
		text := topic.BlockSafe(r.Content)
		if text == "" {
			continue
		}
		// "yesterday" means a day only next to when it was said: the block
		// keeps that day, "yesterday (2026-03-04)", for readers and search.
		if t, err := time.Parse(time.RFC3339, r.Time); err == nil {
			text = topic.BlockSafe(index.AnnotateDates(r.Content, t))
		}
		p, title := offlineTopicFor(r)
		if byPath[p] == nil {
			byPath[p] = &pending{title: title}
			order = append(order, p)
		}
		id := uniqueBlockID(used, "block:"+r.Ref)
		label := topic.NewFootnoteLabel("footnote:" + r.Ref)
		date := r.Time
		if len(date) >= 10 {
			date = date[:10]
		}
		who := r.Label
		if who == "" {
			who = r.Role
		}
		block := fmt.Sprintf("%s: %s[^%s] ^%s", who, text, label, id)
		def := topic.FormatDefinition(topic.Definition{Label: label, Date: date,
			Sources: []topic.Citation{{SourceID: r.Ref, Path: topic.RelPath(p, r.Path), Anchor: r.Anchor}}})
		byPath[p].parts = append(byPath[p].parts, block, def)
	}
	sort.Strings(order)
	var edits []result.Edit
	for _, p := range order {
		pd := byPath[p]
		body := strings.Join(pd.parts, "\n\n") + "\n"
		if _, _, exists := v.Topic(p); exists {
			edits = append(edits, result.Edit{Op: "append", Path: p, Content: &body})
			continue
		}
		content := "# " + pd.title + "\n\n" + body
		edits = append(edits, result.Edit{Op: "create", Path: p, Content: &content})
	}
	return edits
}

// ProposeCoreOf stores the writer's core.md proposal of the blocks ids of
// the topic file path, as a write that filed them as core facts does.
func ProposeCoreOf(ctx context.Context, e *engine.Engine, path string, ids ...string) {
	w := newWriter(e)
	for _, id := range ids {
		w.core = append(w.core, coreBlock{path: path, id: id})
	}
	w.proposeCore(ctx)
}
