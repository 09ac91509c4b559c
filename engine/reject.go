package engine

import (
	"context"
	"sort"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/trust"
)

// Reject takes pending sources out of the owner's review queue (SPEC §5
// extended): owner only and, like Promote, interactive. Each rejection is
// a row of the ledger with who, when, the reason and the SHA-256 of the
// record bytes. Nothing else changes: a rejected source stays untrusted
// (never searched, recalled, rendered or shown to a model), no revision is
// installed, and a later Promote still trusts it. Rejecting a rejected
// source is a no-op; a trusted source cannot be rejected (INVALID_ARGUMENT)
// and an unknown one is NOT_FOUND, and then nothing is rejected.
func (e *Engine) Reject(ctx context.Context, refs []string, reason string) (result.RejectResult, error) {
	res := result.RejectResult{Rejected: []string{}}
	if err := e.gate(trust.OpReject); err != nil {
		return res, err
	}
	if len(refs) == 0 {
		return res, Errorf(CodeInvalidArgument, "reject needs at least one source-id")
	}
	reason = strings.TrimSpace(reason)
	// Under the write lock a concurrent promotion of the same source
	// either happened before (it is trusted: refused) or waits.
	release, err := e.lock(ctx, !e.opts.Interactive)
	if err != nil {
		return res, err
	}
	defer release()
	s, err := e.snapshot(ctx)
	if err != nil {
		return res, err
	}
	var batch []trust.Rejection
	seen := map[string]bool{}
	now := e.opts.Now().UTC()
	for _, ref := range refs {
		src, ok := s.sources[ref]
		if !ok {
			return res, Errorf(CodeNotFound, "no source with source-id %s; nothing was rejected", ref)
		}
		if !src.pending() {
			why := "it was never pending"
			if s.promoted[ref] {
				why = "the owner promoted it"
			}
			return res, Errorf(CodeInvalidArgument, "source %s is trusted (%s): only pending sources can be rejected; nothing was rejected", ref, why)
		}
		if seen[ref] {
			continue
		}
		seen[ref] = true
		batch = append(batch, trust.Rejection{SourceID: ref, RejectedBy: trust.Owner, RejectedAt: now, Reason: reason,
			RecordSHA256: recordSHA256(src.view.Text), Path: src.view.Path, Anchor: src.view.Anchor})
	}
	added, err := e.ledger.Reject(ctx, batch)
	if err != nil {
		return res, Wrap(CodeIO, err, "record rejection")
	}
	res.Rejected = nonNil(added)
	return res, nil
}

// Rejected lists the rejected sources that are still pending (a promoted
// one is trusted and no longer rejected), oldest rejection first.
func (e *Engine) Rejected(ctx context.Context) ([]result.RejectedSource, error) {
	pending, rejected, err := e.reviewQueue(ctx)
	if err != nil {
		return nil, err
	}
	out := []result.RejectedSource{}
	for _, p := range pending {
		if r, ok := rejected[p.Ref]; ok {
			out = append(out, result.RejectedSource{PendingSource: p, Reason: r.Reason,
				RejectedAt: formatTime(r.RejectedAt), RejectedBy: string(r.RejectedBy)})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].RejectedAt < out[j].RejectedAt })
	return out, nil
}

// rejections maps each rejected source-id to its rejection.
func (e *Engine) rejections(ctx context.Context) (map[string]trust.Rejection, error) {
	rs, err := e.ledger.Rejections(ctx)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read rejections")
	}
	out := make(map[string]trust.Rejection, len(rs))
	for _, r := range rs {
		out[r.SourceID] = r
	}
	return out, nil
}

// installSources lists what an install concerns for its history row: the
// records it archives, the sources its changed topic files cite that none
// of them cited before (a block moved between files is no news), and extra
// (the promoted, the forgotten), each once, sorted.
func installSources(before, after *snapshot, plan *txPlan, extra []string) []string {
	set := map[string]bool{}
	for _, id := range extra {
		set[id] = true
	}
	was, now := map[string]bool{}, map[string]bool{}
	for _, p := range plan.order {
		switch {
		case strings.HasPrefix(p, "sources/"):
			if a, ok := after.archives[p]; ok {
				for _, src := range a.sources {
					if _, had := before.sources[src.view.Ref]; !had {
						set[src.view.Ref] = true
					}
				}
			}
		case strings.HasPrefix(p, "topics/"):
			addCites(was, before.topics[p])
			addCites(now, after.topics[p])
		}
	}
	for id := range now {
		if !was[id] {
			set[id] = true
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// addCites adds the source-ids a topic file's footnotes cite to set.
func addCites(set map[string]bool, tf *topicFile) {
	if tf == nil || tf.file == nil {
		return
	}
	for _, d := range tf.file.Definitions() {
		for _, c := range d.Sources {
			set[c.SourceID] = true
		}
	}
}
