package tui

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// Forget selects frames of the fake's archives as the engine does (a
// speaker's v2 frames, a thread, source-ids), previews every place they
// are as diffs and, unless dryRun, turns them into tombstones, drops them
// from the pending queue and removes the blocks that cite only them.
func (f *fakeBackend) Forget(_ context.Context, sel result.ForgetSelector, dryRun bool) (result.ForgetResult, error) {
	if err := f.call("Forget"); err != nil {
		return result.ForgetResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := map[string]bool{}
	for _, id := range sel.Sources {
		want[id] = true
	}
	hit := func(s result.SourceView) bool {
		switch {
		case len(want) > 0:
			return want[s.Ref]
		case sel.Speaker != "":
			return s.SpeakerTrusted && s.SpeakerID == sel.Speaker
		}
		return threadOf(s.Ref) == sel.Thread
	}
	res := result.ForgetResult{Sources: []string{}, Changes: []result.ForgetChange{}, Blocks: []string{}}
	ids := map[string]bool{}
	var paths []string
	for p := range f.archives {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		var diff strings.Builder
		for i, s := range f.archives[p].Sources {
			if !hit(s) || s.Forgotten {
				continue
			}
			ids[s.Ref] = true
			res.Sources = append(res.Sources, s.Ref)
			fmt.Fprintf(&diff, "@@ -%d,3 +%d,3 @@\n <!-- source-id:%s -->\n-%s\n+<!-- forgotten:%s -->\n", 3+5*i, 3+5*i, s.Ref, s.Text, s.Time)
			if !dryRun {
				f.archives[p].Sources[i] = result.SourceView{Kind: "source", Ref: s.Ref, Path: s.Path, Anchor: s.Anchor,
					Time: s.Time, Trust: "trusted", Forgotten: true}
			}
		}
		if diff.Len() > 0 {
			res.Changes = append(res.Changes, result.ForgetChange{Path: p, Kind: "archive",
				Diff: "--- a/" + p + "\n+++ b/" + p + "\n" + diff.String()})
		}
	}
	if len(want) > 0 {
		for id := range want {
			if !ids[id] {
				return result.ForgetResult{}, errcode.Errorf(errcode.NotFound, "no archived record or stored turn has source-id %s", id)
			}
		}
	}
	if len(ids) == 0 {
		return result.ForgetResult{}, errcode.Errorf(errcode.InvalidArgument, "forget %s: nothing to forget", sel)
	}
	var tpaths []string
	for p := range f.topics {
		tpaths = append(tpaths, p)
	}
	sort.Strings(tpaths)
	for _, p := range tpaths {
		t := f.topics[p]
		var diff strings.Builder
		var keep []result.BlockView
		for _, b := range t.Blocks {
			if citesOnly(b, ids) {
				res.Blocks = append(res.Blocks, b.Ref)
				fmt.Fprintf(&diff, "@@ -%d,2 +%d,0 @@\n-%s ^%s\n-\n", b.Line, b.Line, b.Text, b.Ref)
				continue
			}
			keep = append(keep, b)
		}
		if diff.Len() > 0 {
			res.Changes = append(res.Changes, result.ForgetChange{Path: p, Kind: "topic",
				Diff: "--- a/" + p + "\n+++ b/" + p + "\n" + diff.String()})
			if !dryRun {
				t.Blocks = keep
			}
		}
	}
	res.Turns = len(res.Sources)
	res.Changes = append(res.Changes,
		result.ForgetChange{Path: ".scriptorium/index", Kind: "index", Diff: "--- a/.scriptorium/index\n+++ b/.scriptorium/index\n" +
			"-" + strings.Join(res.Sources, "\n-") + "\n the whole index is rebuilt from the files afterwards\n"},
		result.ForgetChange{Path: "sessions.db", Kind: "sessions", Diff: fmt.Sprintf("--- a/sessions.db\n+++ b/sessions.db\n-%d turn(s)\n+(forgotten)\n", res.Turns)})
	if dryRun {
		return res, nil
	}
	var pending []result.PendingSource
	for _, p := range f.pending {
		if !ids[p.Ref] {
			pending = append(pending, p)
		}
	}
	f.pending = pending
	f.revision++
	res.Revision = f.revision
	return res, nil
}

// citesOnly reports whether every source a block cites is in ids.
func citesOnly(b result.BlockView, ids map[string]bool) bool {
	n := 0
	for _, fn := range b.Footnotes {
		for _, c := range fn.Sources {
			if !ids[c.Ref] {
				return false
			}
			n++
		}
	}
	return n > 0
}
