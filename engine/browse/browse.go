// Package browse is the read models the TUI's browser and MCP's resources
// show: the topic list with block and pending counts, one topic file with
// its blocks, and core.md block by block with its render state. It reads
// through the core's exported View and writes nothing.
package browse

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

// Topics lists every topic file with its block and pending counts.
func Topics(ctx context.Context, e *engine.Engine) ([]result.TopicSummary, error) {
	if err := e.Authorize(trust.OpGet); err != nil {
		return nil, err
	}
	v, err := e.View(ctx)
	if err != nil {
		return nil, err
	}
	paths := v.TopicPaths()
	out := make([]result.TopicSummary, 0, len(paths))
	for _, p := range paths {
		_, f, _ := v.Topic(p)
		sum := result.TopicSummary{Path: p}
		for _, b := range f.Blocks() {
			sum.Blocks++
			if !v.BlockTrusted(p, b) {
				sum.Pending++
			}
		}
		out = append(out, sum)
	}
	return out, nil
}

// Topic returns one topic file with its blocks, trust resolved.
func Topic(ctx context.Context, e *engine.Engine, path string) (result.TopicView, error) {
	if err := e.Authorize(trust.OpGet); err != nil {
		return result.TopicView{}, err
	}
	v, err := e.View(ctx)
	if err != nil {
		return result.TopicView{}, err
	}
	data, f, ok := v.Topic(path)
	if !ok {
		return result.TopicView{}, errcode.Errorf(errcode.NotFound, "no topic file %s", path)
	}
	out := result.TopicView{Path: path, Raw: string(data), Blocks: []result.BlockView{}}
	for _, b := range f.Blocks() {
		out.Blocks = append(out.Blocks, v.BlockView(path, b))
	}
	return out, nil
}

// CoreView returns the core render report with every block of
// topics/core.md in file order and its token cost. It writes nothing.
func CoreView(ctx context.Context, e *engine.Engine) (result.CoreView, error) {
	if err := e.Authorize(trust.OpCore); err != nil {
		return result.CoreView{}, err
	}
	v, err := e.View(ctx)
	if err != nil {
		return result.CoreView{}, err
	}
	_, rep := e.CoreRender(v)
	out := result.CoreView{Report: rep, Blocks: []result.CoreBlock{}}
	state := map[string]string{}
	for _, id := range rep.Included {
		state[id] = "included"
	}
	for _, id := range rep.Excluded {
		state[id] = "excluded"
	}
	for _, id := range rep.Pending {
		state[id] = "pending"
	}
	if _, f, ok := v.Topic(coreTopicPath); ok {
		pinnedUntil := topic.PinnedEnd(f.Elements)
		for i, el := range f.Elements {
			if el.Kind != topic.KindBlock {
				continue
			}
			out.Blocks = append(out.Blocks, result.CoreBlock{ID: el.BlockID, Text: topic.BlockText(el),
				Tokens: rep.Costs[el.BlockID], State: state[el.BlockID], Pinned: i < pinnedUntil,
				Footnotes: v.BlockView(coreTopicPath, el).Footnotes})
		}
	}
	return out, nil
}

// Archive returns every source record of one archive, for the drill-down.
func Archive(ctx context.Context, e *engine.Engine, path string) (result.ArchiveView, error) {
	if err := e.Authorize(trust.OpGet); err != nil {
		return result.ArchiveView{}, err
	}
	v, err := e.View(ctx)
	if err != nil {
		return result.ArchiveView{}, err
	}
	a, ok := v.Archive(path)
	if !ok {
		return result.ArchiveView{}, errcode.Errorf(errcode.NotFound, "no source archive %s", path)
	}
	return a, nil
}
