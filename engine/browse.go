package engine

import (
	"context"

	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Topics lists every topic file with its block and pending counts.
func (e *Engine) Topics(ctx context.Context) ([]TopicSummary, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return nil, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]TopicSummary, 0, len(s.topicPaths))
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		sum := TopicSummary{Path: p}
		for _, b := range tf.file.Blocks() {
			sum.Blocks++
			if !s.blockTrusted(tf, b) {
				sum.Pending++
			}
		}
		out = append(out, sum)
	}
	return out, nil
}

// Topic returns one topic file with its blocks, trust resolved.
func (e *Engine) Topic(ctx context.Context, path string) (TopicView, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return TopicView{}, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return TopicView{}, err
	}
	tf, ok := s.topics[path]
	if !ok {
		return TopicView{}, Errorf(CodeNotFound, "no topic file %s", path)
	}
	v := TopicView{Path: path, Raw: string(tf.data), Blocks: []BlockView{}}
	for _, b := range tf.file.Blocks() {
		v.Blocks = append(v.Blocks, s.blockView(tf, b))
	}
	return v, nil
}

// Archive returns every source record of one archive, for drill-down.
func (e *Engine) Archive(ctx context.Context, path string) (ArchiveView, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return ArchiveView{}, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return ArchiveView{}, err
	}
	a, ok := s.archives[path]
	if !ok {
		return ArchiveView{}, Errorf(CodeNotFound, "no source archive %s", path)
	}
	v := ArchiveView{Path: path, Legacy: a.legacy, Sources: []SourceView{}}
	for _, src := range a.sources {
		v.Sources = append(v.Sources, src.view)
	}
	if a.stopErr != nil {
		v.Problem = a.stopErr.Error()
	}
	return v, nil
}

// CoreView returns the core render report with every block of
// topics/core.md in file order and its token cost. It writes nothing.
func (e *Engine) CoreView(ctx context.Context) (CoreView, error) {
	if err := e.gate(trust.OpCore); err != nil {
		return CoreView{}, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return CoreView{}, err
	}
	_, rep := e.coreRender(s)
	v := CoreView{Report: rep, Blocks: []CoreBlock{}}
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
	if tf, ok := s.topics[coreTopicPath]; ok {
		pinnedUntil := pinnedRange(tf.file.Elements)
		for i, el := range tf.file.Elements {
			if el.Kind != topic.KindBlock {
				continue
			}
			v.Blocks = append(v.Blocks, CoreBlock{ID: el.BlockID, Text: topic.BlockText(el),
				Tokens: rep.Costs[el.BlockID], State: state[el.BlockID], Pinned: i < pinnedUntil,
				Footnotes: s.blockView(tf, el).Footnotes})
		}
	}
	return v, nil
}
