// Package review is the owner's side of the review queue that is not an
// install: the queue itself (Pending: the pending sources not rejected),
// rejecting pending sources (a ledger row each, no revision) and listing
// the rejected ones. Promotion installs a revision and distils, so it
// stays in the core. A service on the core's exported API.
package review

import (
	"context"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
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
func Reject(ctx context.Context, e *engine.Engine, refs []string, reason string) (result.RejectResult, error) {
	res := result.RejectResult{Rejected: []string{}}
	if err := e.Authorize(trust.OpReject); err != nil {
		return res, err
	}
	if len(refs) == 0 {
		return res, errcode.Errorf(errcode.InvalidArgument, "reject needs at least one source-id")
	}
	reason = strings.TrimSpace(reason)
	// Under the write lock a concurrent promotion of the same source
	// either happened before (it is trusted: refused) or waits.
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.SourcesView(ctx, refs)
		if err != nil {
			return err
		}
		var batch []trust.Rejection
		seen := map[string]bool{}
		now := e.Now().UTC()
		for _, ref := range refs {
			src, ok := v.Source(ref)
			if !ok {
				return errcode.Errorf(errcode.NotFound, "no source with source-id %s; nothing was rejected", ref)
			}
			if !src.Pending {
				why := "it was never pending"
				if src.Promoted {
					why = "the owner promoted it"
				}
				return errcode.Errorf(errcode.InvalidArgument, "source %s is trusted (%s): only pending sources can be rejected; nothing was rejected", ref, why)
			}
			if seen[ref] {
				continue
			}
			seen[ref] = true
			batch = append(batch, trust.Rejection{SourceID: ref, RejectedBy: trust.Owner, RejectedAt: now, Reason: reason,
				RecordSHA256: trust.RecordSHA256(src.Text), Path: src.Path, Anchor: src.Anchor})
		}
		added, err := e.Records().Reject(ctx, batch)
		if err != nil {
			return errcode.Wrap(errcode.IO, err, "record rejection")
		}
		if added != nil {
			res.Rejected = added
		}
		return nil
	})
	return res, err
}

// Pending lists the sources awaiting the owner's review, oldest first.
// Rejected sources are pending too but no longer await review: Rejected
// lists them.
func Pending(ctx context.Context, e *engine.Engine) ([]result.PendingSource, error) {
	pending, rejected, err := queue(ctx, e)
	if err != nil {
		return nil, err
	}
	out := []result.PendingSource{}
	for _, p := range pending {
		if _, ok := rejected[p.Ref]; !ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// Rejected lists the rejected sources that are still pending (a promoted
// one is trusted and no longer rejected), oldest rejection first.
func Rejected(ctx context.Context, e *engine.Engine) ([]result.RejectedSource, error) {
	pending, rejected, err := queue(ctx, e)
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

// queue reads every pending source and the rejection of each rejected
// source-id: Pending and Rejected are its two halves.
func queue(ctx context.Context, e *engine.Engine) ([]result.PendingSource, map[string]trust.Rejection, error) {
	pending, err := e.PendingSources(ctx)
	if err != nil {
		return nil, nil, err
	}
	rs, err := e.Records().Rejections(ctx)
	if err != nil {
		return nil, nil, errcode.Wrap(errcode.IO, err, "read rejections")
	}
	rejected := make(map[string]trust.Rejection, len(rs))
	for _, r := range rs {
		rejected[r.SourceID] = r
	}
	return pending, rejected, nil
}

// formatTime is the ledger time as the JSON shows it: RFC 3339 in UTC, or
// empty when unknown.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
