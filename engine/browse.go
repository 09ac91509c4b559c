package engine

import (
	"context"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// Archive returns every source record of one archive, for drill-down.
func (e *Engine) Archive(ctx context.Context, path string) (result.ArchiveView, error) {
	if err := e.gate(trust.OpGet); err != nil {
		return result.ArchiveView{}, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return result.ArchiveView{}, err
	}
	a, ok := s.archives[path]
	if !ok {
		return result.ArchiveView{}, errcode.Errorf(errcode.NotFound, "no source archive %s", path)
	}
	v := result.ArchiveView{Path: path, Legacy: a.legacy, Sources: []result.SourceView{}}
	for _, src := range a.sources {
		v.Sources = append(v.Sources, src.view)
	}
	if a.stopErr != nil {
		v.Problem = a.stopErr.Error()
	}
	return v, nil
}
