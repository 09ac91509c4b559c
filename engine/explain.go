package engine

import (
	"context"
	"fmt"
	"strings"

	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// PinnedHeading is the section of topics/core.md whose blocks are pinned:
// it is kept first in the file, so the render (which takes blocks in file
// order) gives them the budget before anything else. It is plain Markdown,
// so the file on disk says what is pinned.
const PinnedHeading = "## Pinned"

// CoreExplanation says why a block is in core.md or left out.
type CoreExplanation struct {
	ID   string `json:"id"`
	Path string `json:"path"` // the topic file that holds the block
	// Position is the block's 1-based place among the blocks of
	// topics/core.md; 0 when the block lives elsewhere.
	Position int `json:"position"`
	Blocks   int `json:"blocks"` // blocks in topics/core.md
	// State is "included", "excluded" (the budget), "pending" (untrusted,
	// never rendered) or "not_in_core" (the block lives in another file).
	State  string `json:"state"`
	Pinned bool   `json:"pinned"`
	Tokens int    `json:"tokens"` // the block alone with its footnotes
	// RunningTotal is core.md's tokens with every block up to this one; 0
	// when the render never reached it.
	RunningTotal int            `json:"running_total"`
	Budget       int            `json:"budget"`
	CoreTokens   int            `json:"core_tokens"` // the whole render
	Trust        string         `json:"trust"`
	Reason       string         `json:"reason"`
	Sources      []CitationView `json:"sources"`
}

// ExplainCore explains one block's place in core.md (`explain ^ID`).
func (e *Engine) ExplainCore(ctx context.Context, ref string) (CoreExplanation, error) {
	if err := e.gate(trust.OpCore); err != nil {
		return CoreExplanation{}, err
	}
	id := strings.TrimPrefix(strings.TrimSpace(ref), "^")
	if !topic.IsBlockID(id) {
		return CoreExplanation{}, Errorf(CodeInvalidArgument, "%q is not a block id (^ and 8 hex digits)", ref)
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return CoreExplanation{}, err
	}
	bv, err := s.block(id)
	if err != nil {
		return CoreExplanation{}, err
	}
	_, rep := e.coreRender(s)
	x := CoreExplanation{ID: id, Path: bv.Path, Budget: rep.Budget, CoreTokens: rep.Tokens, Trust: bv.Trust,
		Tokens: rep.Costs[id], Sources: []CitationView{}}
	for _, f := range bv.Footnotes {
		x.Sources = append(x.Sources, f.Sources...)
	}
	if bv.Path != coreTopicPath {
		x.State = "not_in_core"
		x.Reason = fmt.Sprintf("it lives in %s; only blocks of %s are rendered into core.md (move it there to have every session see it)", bv.Path, coreTopicPath)
		return x, nil
	}
	tf := s.topics[coreTopicPath]
	pinnedUntil := pinnedRange(tf.file.Elements)
	var firstExcluded string
	if len(rep.Excluded) > 0 {
		firstExcluded = rep.Excluded[0]
	}
	for i, el := range tf.file.Elements {
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

// pinnedRange returns the index of the first element after the pinned
// section, or 0 when topics/core.md has none.
func pinnedRange(els []topic.Element) int {
	for i, el := range els {
		if el.Kind != topic.KindHeading || strings.TrimSpace(el.Raw) != PinnedHeading {
			continue
		}
		for j := i + 1; j < len(els); j++ {
			if els[j].Kind == topic.KindHeading && els[j].Level <= 2 {
				return j
			}
		}
		return len(els)
	}
	return 0
}

// CoreMove is one reorder of topics/core.md.
type CoreMove struct {
	// Exactly one of these: Delta moves by places (-1 up, +1 down), To to
	// a 1-based position among the blocks, Top to the first unpinned place,
	// Pin into the pinned section (kept first), Unpin out of it.
	Delta int
	To    int
	Top   bool
	Pin   bool
	Unpin bool
}

// CoreMoveResult is a reorder with core.md's render before and after it.
type CoreMoveResult struct {
	Revision int64      `json:"revision"`
	Changed  []string   `json:"changed"`
	Position int        `json:"position"`
	Pinned   bool       `json:"pinned"`
	Before   CoreReport `json:"before"`
	After    CoreReport `json:"after"`
}

// ReorderCore moves a block of topics/core.md as m says, through a normal
// transaction, and reports the core render before and after. Headings and
// footnote definitions stay where they are; pinning creates the pinned
// section at the top of the file if it is missing.
func (e *Engine) ReorderCore(ctx context.Context, ref string, m CoreMove) (CoreMoveResult, error) {
	var res CoreMoveResult
	if err := e.gate(trust.OpUpdate); err != nil {
		return res, err
	}
	id := strings.TrimPrefix(strings.TrimSpace(ref), "^")
	err := e.Locked(ctx, !e.opts.Interactive, func(tx *Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		tf, ok := v.s.topics[coreTopicPath]
		if !ok {
			return Errorf(CodeNotFound, "there is no topics/core.md")
		}
		_, res.Before = e.coreRender(v.s)
		els, pos, pinned, err := reorder(tf.file.Elements, id, m)
		if err != nil {
			return err
		}
		res.Position, res.Pinned = pos, pinned
		content := string((&topic.File{Elements: els}).Render())
		if content == string(tf.data) {
			res.Revision, res.Changed, res.After = v.Revision, []string{}, res.Before
			return nil
		}
		out, err := tx.Install(ctx, Change{Kind: "update", Actor: e.opts.Tier, Base: &v.Revision,
			Edits: []Edit{{Op: "replace", Path: coreTopicPath, Content: &content}}})
		if err != nil {
			return err
		}
		res.Revision, res.Changed = out.Revision, out.Changed
		after, err := tx.View(ctx)
		if err != nil {
			return err
		}
		_, res.After = e.coreRender(after.s)
		return nil
	})
	return res, err
}

// reorder returns the elements with block id moved, its new 1-based
// position among the blocks and whether it ends up pinned.
func reorder(in []topic.Element, id string, m CoreMove) ([]topic.Element, int, bool, error) {
	els := append([]topic.Element(nil), in...)
	at := -1
	for i, el := range els {
		if el.Kind == topic.KindBlock && el.BlockID == id {
			at = i
		}
	}
	if at < 0 {
		return nil, 0, false, Errorf(CodeNotFound, "no block ^%s in %s", id, coreTopicPath)
	}
	block := els[at]
	wasPinned := at < pinnedRange(els)
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
		end := pinnedRange(els)
		if end == 0 { // create the pinned section right after the title
			title := 0
			if len(els) > 0 && els[0].Kind == topic.KindHeading && els[0].Level == 1 {
				title = 1
			}
			els = append(els[:title:title], append([]topic.Element{{Kind: topic.KindHeading, Raw: PinnedHeading, Level: 2, Heading: "Pinned"}}, els[title:]...)...)
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
			return nil, 0, false, Errorf(CodeInvalidArgument, "^%s is not pinned", id)
		}
		// First in the section after the pinned one, which a pin made when
		// it created the pinned section.
		end := pinnedRange(els)
		if end == len(els) {
			els = append(els, topic.Element{Kind: topic.KindHeading, Raw: "## Core", Level: 2, Heading: "Core"})
		}
		insertAt(end + 1)
	case m.Top:
		pinned := 0
		for _, i := range blockIdx() {
			if i < pinnedRange(els) {
				pinned++
			}
		}
		insertAt(before(pinned))
	case m.To > 0:
		insertAt(before(m.To - 1))
	case m.Delta != 0:
		insertAt(before(max(blocksBefore+m.Delta, 0)))
	default:
		return nil, 0, false, Errorf(CodeInvalidArgument, "say where to move ^%s: --top, --to N, --pin or --unpin", id)
	}
	pos := 0
	for i, el := range els {
		if el.Kind == topic.KindBlock {
			pos++
			if el.BlockID == id {
				return els, pos, i < pinnedRange(els), nil
			}
		}
	}
	return els, pos, false, nil // unreachable: the block was inserted
}
