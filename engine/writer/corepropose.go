package writer

import (
	"context"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// topics/core.md is what every session sees, and it is the owner's. What
// belongs there is the owner's standing preferences and instructions
// ("always give quantities in grams", "I'm vegetarian"), which the
// distiller marks (distill.Fact.Core). After a write that filed such
// facts, the writer proposes copies of their blocks for core.md (a new
// file, or appended to the one there), waiting for the owner in the
// Passes pane like every proposal: nothing enters core.md without the
// owner. It used to propose the most cited blocks, which on real
// conversations was the first turns of a session, questions included.

// coreBlock is a block a write filed from a core fact.
type coreBlock struct{ path, id string }

// proposeCore stores a core proposal of this run's core facts and the
// queued ones (corequeue.go) that core.md does not hold yet. While a core
// proposal is waiting, a second one would conflict with it: the
// candidates are queued for a later write instead. It is best effort: the
// write it follows succeeded either way, so failures are not reported.
// It returns the id of the proposal it stored, "" when none.
func (w *writer) proposeCore(ctx context.Context) string {
	if w.e.Authorize(trust.OpPropose) != nil {
		return ""
	}
	cands := withQueued(w.queuedCore(), w.core)
	if len(cands) == 0 {
		return ""
	}
	v, err := w.e.View(ctx)
	if err != nil {
		return ""
	}
	waiting, err := proposals.List(w.e)
	if err != nil {
		return ""
	}
	awaited := awaitedCore(v, waiting, cands)
	for _, p := range waiting {
		if _, ok := p.Files[render.CoreTopicPath]; ok {
			if len(w.core) > 0 {
				w.setCoreQueue(cands)
			}
			return ""
		}
	}
	before, _, _ := v.Topic(render.CoreTopicPath)
	after := coreProposal(v, before, cands, w.e.Config().Memory.Core.Budget)
	if after == "" {
		w.setCoreQueue(awaited) // core.md holds the others, or they are gone
		return ""
	}
	edit, ok := result.FileEdit(render.CoreTopicPath, before, []byte(after))
	if !ok {
		return ""
	}
	plan, err := w.e.Plan(v, engine.Change{Kind: "write", Actor: trust.Owner, Edits: []result.Edit{edit}})
	if err != nil || len(engine.NewViolations(v, plan.After)) > 0 {
		return ""
	}
	p := proposals.FromPlan(w.e, "write", "", v, plan)
	if proposals.Save(w.e, p) != nil {
		return ""
	}
	w.setCoreQueue(awaited)
	return p.ID
}

// awaitedCore are the candidates not in memory yet that a waiting
// proposal files (a `write --redistill` the owner has not answered): they
// stay queued until it is accepted, or declined and then dropped.
func awaitedCore(v *engine.View, waiting []proposals.Proposal, cands []coreBlock) []coreBlock {
	var out []coreBlock
	for _, c := range cands {
		if _, _, ok := blockIn(v, c); ok {
			continue
		}
		for _, p := range waiting {
			f, ok := p.Files[c.path]
			if !ok || f.After == nil {
				continue
			}
			if parsed, _ := topic.Parse(f.After); parsed != nil && hasBlock(parsed, c.id) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func hasBlock(f *topic.File, id string) bool {
	for _, el := range f.Blocks() {
		if el.BlockID == id {
			return true
		}
	}
	return false
}

// coreProposal is topics/core.md (its current bytes before, nil when it
// does not exist) with a copy of each candidate block it does not hold
// yet, while it fits budget tokens (at least one is proposed); "" when
// there is nothing to add. A copy has a new id and one footnote citing
// what the block cites.
func coreProposal(v *engine.View, before []byte, cands []coreBlock, budget int) string {
	var core *topic.File
	if before != nil {
		f, err := topic.Parse(before)
		if err != nil {
			return ""
		}
		core = f
	} else {
		core, _ = topic.Parse([]byte("# Core\n"))
	}
	have := map[string]bool{}
	labels := map[string]bool{}
	for _, el := range core.Elements {
		if el.Kind == topic.KindBlock {
			have[plainText(el)] = true
		}
		if el.Kind == topic.KindFootnote {
			labels[el.Label] = true
		}
	}
	used := takenIDs{taken: func(string) bool { return false }, batch: v.BlockIDs()}
	var added []string
	for _, c := range cands {
		el, defs, ok := blockIn(v, c)
		if !ok || len(el.Links) > 0 || !v.BlockTrusted(c.path, el) || have[plainText(el)] {
			// Links are relative to the block's own folder: a copy would
			// break them.
			continue
		}
		var def topic.Definition
		seen := map[string]bool{}
		for _, r := range el.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			if def.Date == "" {
				def.Date = d.Date
			}
			for _, s := range d.Sources {
				if seen[s.SourceID] {
					continue
				}
				seen[s.SourceID] = true
				s.Path = topic.RelPath(render.CoreTopicPath, topic.ResolvePath(c.path, s.Path))
				def.Sources = append(def.Sources, s)
			}
		}
		if len(def.Sources) == 0 {
			continue
		}
		id := uniqueBlockID(used, "core:"+el.BlockID)
		def.Label = topic.UniqueFootnoteLabel("footnote:core:"+id, func(l string) bool { return labels[l] })
		labels[def.Label] = true
		part := plainText(el) + "[^" + def.Label + "] ^" + id + "\n\n" + topic.FormatDefinition(def)
		next := render.CountTokens(string(before) + strings.Join(append(added, part), "\n\n"))
		if next > budget && len(added) > 0 {
			break
		}
		added = append(added, part)
		have[plainText(el)] = true
	}
	if len(added) == 0 {
		return ""
	}
	head := string(before)
	if before == nil {
		head = "# Core\n"
	}
	return strings.TrimRight(head, "\n") + "\n\n" + strings.Join(added, "\n\n") + "\n"
}

// blockIn finds block c in v, with its file's footnote definitions.
func blockIn(v *engine.View, c coreBlock) (topic.Element, map[string]*topic.Definition, bool) {
	_, f, ok := v.Topic(c.path)
	if !ok {
		return topic.Element{}, nil, false
	}
	for _, el := range f.Blocks() {
		if el.BlockID == c.id {
			return el, f.Definitions(), true
		}
	}
	return topic.Element{}, nil, false
}

// plainText is a block's text without its footnote markers.
func plainText(el topic.Element) string {
	return strings.TrimSpace(markerRE.ReplaceAllString(topic.BlockText(el), ""))
}
