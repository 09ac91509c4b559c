package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
)

// What several verbs print the same way: speakers, sources, diffs, one-line
// snippets.

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// reviewQueue maps the pending and the rejected sources by source-id, so
// the CLI can say whose words a decision concerns, and returns the review
// queue (the pending sources not rejected), oldest first.
func reviewQueue(ctx context.Context, e *engine.Engine) (map[string]result.PendingSource, []result.PendingSource, error) {
	ps, err := review.Pending(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	rs, err := review.Rejected(ctx, e)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]result.PendingSource{}
	for _, p := range ps {
		out[p.Ref] = p
	}
	for _, r := range rs {
		out[r.Ref] = r.PendingSource
	}
	return out, ps, nil
}

// describeSources prints one line per source-id: speaker, thread, text.
func describeSources(w io.Writer, refs []string, known map[string]result.PendingSource) {
	for _, r := range refs {
		p, ok := known[r]
		if !ok {
			fmt.Fprintf(w, "  %s\n", r)
			continue
		}
		fmt.Fprintf(w, "  %s  %s  %s\n", r, speakerText(p.SpeakerLabel, p.SpeakerID), oneLine(p.Content, 60))
	}
}

// sourceSpeaker is `get`'s speaker line: who, and whether the identity
// came from a trusted v2 frame. It says nothing about the record's trust.
func sourceSpeaker(x result.SourceView) string {
	switch {
	case x.SpeakerLabel == "":
		return "(no speaker identity; role " + orNone(x.Label) + ")"
	case !x.SpeakerTrusted:
		return x.SpeakerLabel + " — unverified (a legacy hint)"
	}
	return speakerText(x.SpeakerLabel, x.SpeakerID)
}

// recordTrust says what a record's trust word means.
func recordTrust(t string) string {
	if t == "pending" {
		return "pending review (untrusted: never searched, recalled or rendered)"
	}
	return "trusted"
}

// speakerText names a speaker and says how far the name can be believed.
func speakerText(label, id string) string {
	switch {
	case label == "":
		return "(no speaker identity)"
	case id != "":
		return label + " — identity verified"
	}
	return label + " — display name only"
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

func proposalPaths(p proposals.Proposal) []string {
	out := make([]string, len(p.Changed))
	for i, c := range p.Changed {
		out[i] = c.Path
	}
	return out
}

// printDiffs prints each file's unified diff.
func printDiffs(w io.Writer, diffs []result.FileDiff) {
	for _, c := range diffs {
		fmt.Fprintf(w, "\n%s", c.Diff)
		if !strings.HasSuffix(c.Diff, "\n") {
			fmt.Fprintln(w)
		}
	}
}
