package engine

import (
	"context"
	"sort"
	"strings"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

func (s *snapshot) pendingSources() []result.PendingSource {
	out := []result.PendingSource{}
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			if !src.pending() || s.sources.Lookup(src.ref) != src {
				continue
			}
			v := src.view()
			out = append(out, result.PendingSource{Ref: v.Ref, Path: v.Path, Anchor: v.Anchor, Time: v.Time,
				SpeakerLabel: v.SpeakerLabel, SpeakerID: v.SpeakerID, Content: v.Content,
				Thread: src.file.provider + "/" + src.file.thread, Text: v.Text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Time != out[j].Time {
			return out[i].Time < out[j].Time
		}
		return out[i].Path < out[j].Path
	})
	return out
}

// PendingSources lists every pending source, oldest first, rejected or
// not: the review queue engine/review lists (Pending, Rejected). A one-shot
// engine reads only the archives the manifest says hold pending records.
func (e *Engine) PendingSources(ctx context.Context) ([]result.PendingSource, error) {
	if err := e.gate(trust.OpPending); err != nil {
		return nil, err
	}
	s, _, ok := e.partial(ctx, func(pr *partialRead) []string { return pr.PendingPaths(pr.promoted) })
	if !ok {
		var err error
		if s, err = e.snapshot(ctx); err != nil {
			return nil, err
		}
	}
	return s.pendingSources(), nil
}

// Promote promotes pending sources by source-id (SPEC §5). Only the owner
// promotes, and only interactively: the CLI asks for a terminal or --yes.
// Each promotion is an audit record in the ledger with the SHA-256 of the
// record bytes; a source a topic already cites needs no distillation, an
// uncited one is distilled by the writer in one transaction. Either way a
// promotion is one new revision with a history row of kind "promote";
// promoting an already promoted source is a no-op (no new revision).
func (e *Engine) Promote(ctx context.Context, refs []string) (result.PromoteResult, error) {
	res := result.PromoteResult{Promoted: []string{}, Distilled: []string{}}
	if err := e.gate(trust.OpPromote); err != nil {
		return res, err
	}
	if len(refs) == 0 {
		return res, errcode.Errorf(errcode.InvalidArgument, "promote needs at least one source-id")
	}
	release, err := e.lock(ctx, !e.opts.Interactive)
	if err != nil {
		return res, err
	}
	defer release()
	s, err := e.snapshot(ctx)
	if err != nil {
		return res, err
	}
	rejections, err := e.rec.Rejections(ctx)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read rejections")
	}
	rejected := map[string]bool{}
	for _, r := range rejections {
		rejected[r.SourceID] = true
	}
	var batch []trust.Promotion
	seen := map[string]bool{}
	for _, ref := range refs {
		src, ok := s.sources.Get(ref)
		if !ok {
			return res, errcode.Errorf(errcode.NotFound, "no source with source-id %s; nothing was promoted", ref)
		}
		if seen[ref] || !src.pending() {
			continue
		}
		seen[ref] = true
		// Promoting a rejected source reverses the rejection; the ledger
		// says which decision it overrides.
		prev := "pending"
		if rejected[ref] {
			prev = "rejected"
		}
		batch = append(batch, trust.Promotion{SourceID: ref, PromotedBy: trust.Owner, PromotedAt: e.opts.Now().UTC(),
			PreviousState: prev, RecordSHA256: trust.RecordSHA256(src.view().Text), Path: src.file.path, Anchor: src.anchor})
	}
	if len(batch) == 0 {
		return res, nil
	}
	added, err := e.rec.Promote(ctx, batch)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "record promotion")
	}
	res.Promoted = records.NonNil(added)
	after, err := e.snapshot(ctx)
	if err != nil {
		return res, err
	}
	cited := after.citedSources()
	var uncited []string
	for _, id := range res.Promoted {
		if !cited[id] {
			uncited = append(uncited, id)
		}
	}
	if len(uncited) > 0 {
		// The promotion alone adds the sources to the index. Record that
		// first, so the distil install below finds the index matching its
		// starting point and updates it instead of rebuilding it whole.
		e.updateIndex(ctx, s, after)
		distilled, err := e.distill(ctx, after, uncited, res.Promoted)
		if err != nil {
			// The promotion stands (it is recorded); the distillation can be
			// redone by backfill. Say so rather than pretend it failed whole.
			return res, &errcode.Error{Code: errcode.As(err).Code, Err: err,
				Message: "promoted " + strings.Join(res.Promoted, ", ") + " but could not distil them (run backfill to retry): " + errcode.As(err).Message}
		}
		res.Distilled = records.NonNil(distilled)
		if len(distilled) > 0 {
			// The distil install is the promotion's revision.
			res.Revision, res.Topics = e.rec.LastInstall(ctx)
			return res, nil
		}
	}
	// Nothing to distil: the promotion is still a change of memory (blocks
	// citing these sources are trusted now, core.md and search Change), so
	// it gets its own revision and history row, with no files changed.
	rev, err := e.ws.Revision()
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read revision")
	}
	hist := records.History{Revision: rev + 1, Time: e.opts.Now().UTC(), Actor: string(trust.Owner), Kind: "promote",
		Changed: []string{}, Diffs: map[string]string{}, Sources: res.Promoted}
	if err := e.commit(ctx, &txPlan{files: map[string][]byte{}, old: map[string][]byte{}}, hist); err != nil {
		return res, err
	}
	e.afterInstall(ctx, s, after)
	res.Revision, res.Topics = rev+1, []string{}
	return res, nil
}

// citedSources is the set of source-ids some topic footnote cites.
func (s *snapshot) citedSources() map[string]bool {
	out := map[string]bool{}
	for _, p := range s.topicPaths {
		for _, d := range s.topics[p].file.Definitions() {
			for _, c := range d.Sources {
				out[c.SourceID] = true
			}
		}
	}
	return out
}

// Distiller turns trusted sources into cited topic blocks. The core does
// not know how: package writer provides one, handed in at Open, and
// promotion calls it for what it promotes.
type Distiller interface {
	// Distill distils the sources refs of v through tx (one install of
	// the given history kind) and returns the source-ids it distilled.
	Distill(ctx context.Context, tx *Tx, v *View, refs []string, kind string) ([]string, error)
}

// distill hands freshly promoted sources to the configured Distiller; with
// none the promotion stands alone and backfill distils them later. The
// install's history row names every source promoted, refs and the cited.
func (e *Engine) distill(ctx context.Context, s *snapshot, refs, promoted []string) ([]string, error) {
	if e.opts.Distiller == nil {
		return []string{}, nil
	}
	rev, err := e.revision()
	if err != nil {
		return nil, err
	}
	return e.opts.Distiller.Distill(ctx, &Tx{e: e, sources: promoted}, &View{Revision: rev, s: s}, refs, "promote")
}
