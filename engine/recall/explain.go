package recall

import (
	"context"
	"fmt"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// coreTopicPath is the owner's core topic, which core.md renders.
const coreTopicPath = render.CoreTopicPath

// ExplainCore explains one block's place in core.md (`explain ^ID`).
func ExplainCore(ctx context.Context, e *engine.Engine, ref string) (result.CoreExplanation, error) {
	if err := e.Authorize(trust.OpCore); err != nil {
		return result.CoreExplanation{}, err
	}
	id := strings.TrimPrefix(strings.TrimSpace(ref), "^")
	if !topic.IsBlockID(id) {
		return result.CoreExplanation{}, errcode.Errorf(errcode.InvalidArgument, "%q is not a block id (^ and 8 hex digits)", ref)
	}
	v, err := e.View(ctx)
	if err != nil {
		return result.CoreExplanation{}, err
	}
	got, err := e.Get(ctx, "^"+id)
	if err != nil {
		return result.CoreExplanation{}, err
	}
	bv, ok := got.(result.BlockView)
	if !ok {
		return result.CoreExplanation{}, errcode.Errorf(errcode.NotFound, "no block ^%s", id)
	}
	_, rep := e.CoreRender(v)
	x := result.CoreExplanation{ID: id, Path: bv.Path, Budget: rep.Budget, CoreTokens: rep.Tokens, Trust: bv.Trust,
		Tokens: rep.Costs[id], Sources: []result.CitationView{}}
	for _, f := range bv.Footnotes {
		x.Sources = append(x.Sources, f.Sources...)
	}
	if bv.Path != coreTopicPath {
		x.State = "not_in_core"
		x.Reason = fmt.Sprintf("it lives in %s; only blocks of %s are rendered into core.md (move it there to have every session see it)", bv.Path, coreTopicPath)
		return x, nil
	}
	_, f, _ := v.Topic(coreTopicPath)
	if f == nil {
		return x, errcode.Errorf(errcode.Conflict, "topics/core.md changed while it was read; try again")
	}
	pinnedUntil := topic.PinnedEnd(f.Elements)
	var firstExcluded string
	if len(rep.Excluded) > 0 {
		firstExcluded = rep.Excluded[0]
	}
	for i, el := range f.Elements {
		if el.Kind != topic.KindBlock {
			continue
		}
		x.Blocks++
		if el.BlockID == id {
			x.Position = x.Blocks
			x.Pinned = i < pinnedUntil
		}
	}
	x.RunningTotal = rep.Running[id]
	switch {
	case contains(rep.Pending, id):
		x.State = "pending"
		x.Reason = "it cites a source pending the owner's review, and pending content is never rendered; promote the source to include it"
	case contains(rep.Included, id):
		x.State = "included"
		x.Reason = fmt.Sprintf("with every block before it core.md holds %d of %d tokens, within the budget", x.RunningTotal, x.Budget)
	case id == firstExcluded:
		x.State = "excluded"
		x.Reason = fmt.Sprintf("adding it would make core.md %d tokens, over the budget of %d: it is the first block that does not fit, so it and every block after it are left out (move it up, pin it, or raise memory.core.budget)",
			x.RunningTotal, x.Budget)
	default:
		x.State = "excluded"
		x.Reason = fmt.Sprintf("the render stopped at ^%s, the first block that did not fit the budget of %d tokens, and leaves out every block after it (move this one up or pin it)",
			firstExcluded, x.Budget)
	}
	return x, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// ReorderCore moves a block of topics/core.md as m says, through a normal
// transaction, and reports the core render before and after. Headings and
// footnote definitions stay where they are; pinning creates the pinned
// section at the top of the file if it is missing.
func ReorderCore(ctx context.Context, e *engine.Engine, ref string, m result.CoreMove) (result.CoreMoveResult, error) {
	var res result.CoreMoveResult
	if err := e.Authorize(trust.OpUpdate); err != nil {
		return res, err
	}
	id := strings.TrimPrefix(strings.TrimSpace(ref), "^")
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		data, f, ok := v.Topic(coreTopicPath)
		if !ok {
			return errcode.Errorf(errcode.NotFound, "there is no topics/core.md")
		}
		_, res.Before = e.CoreRender(v)
		els, pos, pinned, err := reorder(f.Elements, id, m)
		if err != nil {
			return err
		}
		res.Position, res.Pinned = pos, pinned
		content := string((&topic.File{Elements: els}).Render())
		if content == string(data) {
			res.Revision, res.Changed, res.After = v.Revision, []string{}, res.Before
			return nil
		}
		out, err := tx.Install(ctx, engine.Change{Kind: "update", Actor: e.Options().Tier, Base: &v.Revision,
			Edits: []result.Edit{{Op: "replace", Path: coreTopicPath, Content: &content}}})
		if err != nil {
			return err
		}
		res.Revision, res.Changed = out.Revision, out.Changed
		after, err := tx.View(ctx)
		if err != nil {
			return err
		}
		_, res.After = e.CoreRender(after)
		return nil
	})
	return res, err
}

// reorder returns the elements with block id moved, its new 1-based
// position among the blocks and whether it ends up pinned.
func reorder(in []topic.Element, id string, m result.CoreMove) ([]topic.Element, int, bool, error) {
	els := append([]topic.Element(nil), in...)
	at := -1
	for i, el := range els {
		if el.Kind == topic.KindBlock && el.BlockID == id {
			at = i
		}
	}
	if at < 0 {
		return nil, 0, false, errcode.Errorf(errcode.NotFound, "no block ^%s in %s", id, coreTopicPath)
	}
	block := els[at]
	wasPinned := at < topic.PinnedEnd(els)
	els = append(els[:at:at], els[at+1:]...)
	blockIdx := func() []int { // element indexes of the remaining blocks
		var out []int
		for i, el := range els {
			if el.Kind == topic.KindBlock {
				out = append(out, i)
			}
		}
		return out
	}
	insertAt := func(i int) { els = append(els[:i:i], append([]topic.Element{block}, els[i:]...)...) }
	// before returns the element index to insert at so the block becomes
	// the n-th block (0-based), or after the last block.
	before := func(n int) int {
		idx := blockIdx()
		switch {
		case len(idx) == 0:
			return len(els)
		case n < len(idx):
			return idx[n]
		}
		return idx[len(idx)-1] + 1
	}
	blocksBefore := 0
	for i := 0; i < at; i++ {
		if in[i].Kind == topic.KindBlock {
			blocksBefore++
		}
	}
	switch {
	case m.Pin:
		end := topic.PinnedEnd(els)
		if end == 0 { // create the pinned section right after the title
			title := 0
			if len(els) > 0 && els[0].Kind == topic.KindHeading && els[0].Level == 1 {
				title = 1
			}
			els = append(els[:title:title], append([]topic.Element{{Kind: topic.KindHeading, Raw: topic.PinnedHeading, Level: 2, Heading: "Pinned"}}, els[title:]...)...)
			end = title + 1
			// The rest of the file needs a heading of its own, or it would
			// read as pinned too.
			if end < len(els) && !(els[end].Kind == topic.KindHeading && els[end].Level <= 2) {
				els = append(els[:end:end], append([]topic.Element{{Kind: topic.KindHeading, Raw: "## Core", Level: 2, Heading: "Core"}}, els[end:]...)...)
			}
		}
		insertAt(end)
	case m.Unpin:
		if !wasPinned {
			return nil, 0, false, errcode.Errorf(errcode.InvalidArgument, "^%s is not pinned", id)
		}
		// First in the section after the pinned one, which a pin made when
		// it created the pinned section.
		end := topic.PinnedEnd(els)
		if end == len(els) {
			els = append(els, topic.Element{Kind: topic.KindHeading, Raw: "## Core", Level: 2, Heading: "Core"})
		}
		insertAt(end + 1)
	case m.Top:
		pinned := 0
		for _, i := range blockIdx() {
			if i < topic.PinnedEnd(els) {
				pinned++
			}
		}
		insertAt(before(pinned))
	case m.To > 0:
		insertAt(before(m.To - 1))
	case m.Delta != 0:
		insertAt(before(max(blocksBefore+m.Delta, 0)))
	default:
		return nil, 0, false, errcode.Errorf(errcode.InvalidArgument, "say where to move ^%s: --top, --to N, --pin or --unpin", id)
	}
	pos := 0
	for i, el := range els {
		if el.Kind == topic.KindBlock {
			pos++
			if el.BlockID == id {
				return els, pos, i < topic.PinnedEnd(els), nil
			}
		}
	}
	return els, pos, false, nil // unreachable: the block was inserted
}
