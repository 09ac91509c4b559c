package curate

import (
	"context"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// coreTopicPath is the topic file core.md is rendered from.
const coreTopicPath = "topics/core.md"

// MoveCoreBlock moves a block of topics/core.md up (delta < 0) or down
// (delta > 0) by one place among the blocks, through a normal transaction,
// so the owner can choose what the budget keeps (the TUI's core view).
// Headings and footnote definitions stay where they are; a move past
// either end changes nothing.
func MoveCoreBlock(ctx context.Context, e *engine.Engine, id string, delta int) (result.UpdateResult, error) {
	var res result.UpdateResult
	if err := e.Authorize(trust.OpUpdate); err != nil {
		return res, err
	}
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		_, f, ok := v.Topic(coreTopicPath)
		if !ok {
			return errcode.Errorf(errcode.NotFound, "there is no topics/core.md")
		}
		els := append([]topic.Element(nil), f.Elements...)
		var blocks []int // element indexes of blocks
		at := -1
		for i, el := range els {
			if el.Kind == topic.KindBlock {
				if el.BlockID == id {
					at = len(blocks)
				}
				blocks = append(blocks, i)
			}
		}
		if at < 0 {
			return errcode.Errorf(errcode.NotFound, "no block ^%s in topics/core.md", id)
		}
		to := at + 1
		if delta < 0 {
			to = at - 1
		}
		if to < 0 || to >= len(blocks) {
			res = result.UpdateResult{Revision: v.Revision, Changed: []string{}}
			return nil
		}
		els[blocks[at]], els[blocks[to]] = els[blocks[to]], els[blocks[at]]
		content := string((&topic.File{Elements: els}).Render())
		res, err = tx.Install(ctx, engine.Change{Kind: "update", Actor: e.Options().Tier, Base: &v.Revision,
			Edits: []result.Edit{{Op: "replace", Path: coreTopicPath, Content: &content}}})
		return err
	})
	return res, err
}
