package writer

import (
	"context"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// A workspace the writer fills has no topics/core.md until someone writes
// one, so core.md stays empty and no session sees anything. When a write
// leaves no core, the writer proposes one: the most cited trusted blocks,
// copied (with new ids and their footnotes) into topics/core.md up to the
// core budget, waiting for the owner like every proposal. A later sleep
// pass merges the copies with their originals, keeping the core's.

// coreCandidate is a block worth proposing for the core.
type coreCandidate struct {
	path    string
	el      topic.Element
	sources int // distinct sources its footnotes cite
	defs    []*topic.Definition
}

// proposeCore stores a core proposal when topics/core.md does not exist
// and none is waiting. It is best effort: the write it follows succeeded
// either way, so failures are not reported.
func (w *writer) proposeCore(ctx context.Context) {
	if w.e.Authorize(trust.OpPropose) != nil {
		return
	}
	v, err := w.e.View(ctx)
	if err != nil {
		return
	}
	if _, _, ok := v.Topic(render.CoreTopicPath); ok {
		return
	}
	waiting, err := proposals.List(w.e)
	if err != nil {
		return
	}
	for _, p := range waiting {
		if _, ok := p.Files[render.CoreTopicPath]; ok {
			return
		}
	}
	content := coreProposal(v, w.e.Config().Memory.Core.Budget)
	if content == "" {
		return
	}
	plan, err := w.e.Plan(v, engine.Change{Kind: "write", Actor: trust.Owner,
		Edits: []result.Edit{{Op: "create", Path: render.CoreTopicPath, Content: &content}}})
	if err != nil || len(engine.NewViolations(v, plan.After)) > 0 {
		return
	}
	_ = proposals.Save(w.e, proposals.FromPlan(w.e, "write", "", v, plan))
}

// coreProposal renders topics/core.md from the most cited trusted blocks
// of v that fit budget tokens; "" when there is none.
func coreProposal(v *engine.View, budget int) string {
	var cands []coreCandidate
	for _, p := range v.TopicPaths() {
		_, f, _ := v.Topic(p)
		defs := f.Definitions()
		for _, el := range f.Blocks() {
			// Links are relative to the block's own folder; a copy would
			// break them, so such blocks stay where they are.
			if len(el.Links) > 0 || !v.BlockTrusted(p, el) {
				continue
			}
			c := coreCandidate{path: p, el: el}
			seen := map[string]bool{}
			for _, r := range el.Refs {
				d, ok := defs[r.Label]
				if !ok {
					continue
				}
				c.defs = append(c.defs, d)
				for _, s := range d.Sources {
					seen[s.SourceID] = true
				}
			}
			if c.sources = len(seen); c.sources > 0 {
				cands = append(cands, c)
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].sources > cands[j].sources })
	// Once per write run, not per batch: the scan of every id is fine here.
	used := takenIDs{taken: func(string) bool { return false }, batch: v.BlockIDs()}
	var blocks, notes []string
	noted := map[string]bool{}
	file := func() string {
		return "# Core\n\n" + strings.Join(append(append([]string{}, blocks...), notes...), "\n\n") + "\n"
	}
	for _, c := range cands {
		id := uniqueBlockID(used, "core:"+c.el.BlockID)
		block := topic.BlockText(c.el) + " ^" + id
		var add []string
		for _, d := range c.defs {
			if noted[d.Label] {
				continue
			}
			cp := *d
			cp.Sources = nil
			for _, s := range d.Sources {
				s.Path = topic.RelPath(render.CoreTopicPath, topic.ResolvePath(c.path, s.Path))
				cp.Sources = append(cp.Sources, s)
			}
			add = append(add, topic.FormatDefinition(cp))
		}
		blocks, notes = append(blocks, block), append(notes, add...)
		if render.CountTokens(file()) > budget && len(blocks) > 1 {
			blocks, notes = blocks[:len(blocks)-1], notes[:len(notes)-len(add)]
			delete(used.batch, id)
			break
		}
		for _, d := range c.defs {
			noted[d.Label] = true
		}
	}
	if len(blocks) == 0 {
		return ""
	}
	return file()
}
