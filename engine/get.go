package engine

import (
	"context"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Get returns a block (`^id`, `id`, `path#^id`) as a BlockView or a source
// (`source-id`, `path#source-<hash>`) as a SourceView.
func (e *Engine) Get(ctx context.Context, ref string) (any, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return nil, err
	}
	if s, _, ok := e.partial(ctx, func(pr *partialRead) []string { return pr.PathsForRef(ref) }); ok {
		return s.get(ref)
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return s.get(ref)
}

func (s *snapshot) get(ref string) (any, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, errcode.Errorf(errcode.InvalidArgument, "empty reference")
	}
	if p, anchor, ok := strings.Cut(ref, "#"); ok {
		switch {
		case strings.HasPrefix(anchor, "^"):
			id := anchor[1:]
			if !topic.IsBlockID(id) {
				return nil, errcode.Errorf(errcode.InvalidArgument, "%q is not a block id (8 lowercase hex digits)", id)
			}
			return s.blockIn(strings.TrimPrefix(p, "./"), id)
		case strings.HasPrefix(anchor, "source-"):
			e, ok := s.anchorEntry(strings.TrimPrefix(p, "./"), anchor)
			if !ok {
				return nil, errcode.Errorf(errcode.NotFound, "no source with anchor %s in %s", anchor, p)
			}
			return e.view(), nil
		}
		return nil, errcode.Errorf(errcode.InvalidArgument, "reference %q: the anchor must be ^<block-id> or source-<hash>", ref)
	}
	if id := strings.TrimPrefix(ref, "^"); topic.IsBlockID(id) {
		return s.block(id)
	}
	if strings.HasPrefix(ref, "^") {
		return nil, errcode.Errorf(errcode.InvalidArgument, "%q is not a block id (8 lowercase hex digits)", ref[1:])
	}
	if strings.Count(ref, "/") >= 2 {
		e, ok := s.sources.Get(ref)
		if !ok {
			return nil, errcode.Errorf(errcode.NotFound, "no source with source-id %s", ref)
		}
		return e.view(), nil
	}
	return nil, errcode.Errorf(errcode.InvalidArgument, "reference %q is neither a block (^id, path#^id) nor a source (provider/thread/message, path#source-hash)", ref)
}

func (s *snapshot) block(id string) (result.BlockView, error) {
	for _, p := range s.topicPaths {
		if v, err := s.blockIn(p, id); err == nil {
			return v, nil
		}
	}
	return result.BlockView{}, errcode.Errorf(errcode.NotFound, "no block ^%s in any topic", id)
}

func (s *snapshot) blockIn(p, id string) (result.BlockView, error) {
	tf, ok := s.topics[p]
	if !ok {
		return result.BlockView{}, errcode.Errorf(errcode.NotFound, "no topic file %s", p)
	}
	for _, b := range tf.file.Blocks() {
		if b.BlockID == id {
			return s.blockView(tf, b), nil
		}
	}
	return result.BlockView{}, errcode.Errorf(errcode.NotFound, "no block ^%s in %s", id, p)
}

func (s *snapshot) blockView(tf *topicFile, b topic.Element) result.BlockView {
	v := result.BlockView{Kind: "topic", Ref: b.BlockID, Path: tf.path, Anchor: "^" + b.BlockID,
		Text: topic.BlockText(b), Trust: "trusted", Footnotes: []result.FootnoteView{}, Line: b.Line}
	if !s.blockTrusted(tf, b) {
		v.Trust = "pending"
	}
	defs := tf.file.Definitions()
	seen := map[string]bool{}
	for _, r := range b.Refs {
		if seen[r.Label] {
			continue
		}
		seen[r.Label] = true
		fv := result.FootnoteView{Label: r.Label, Sources: []result.CitationView{}}
		if d, ok := defs[r.Label]; ok {
			fv.Time = d.Date
			for _, c := range d.Sources {
				p := resolveRel(tf.path, c.Path)
				if p == "" {
					p = c.Path
				}
				fv.Sources = append(fv.Sources, result.CitationView{Ref: c.SourceID, Path: p, Anchor: c.Anchor})
			}
		}
		v.Footnotes = append(v.Footnotes, fv)
	}
	return v
}
