// Package revert undoes an install: a service on the core's exported API
// (a locked view, a plan, an install of kind "revert") and state.db's
// recorded topic bytes (engine/records).
package revert

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/errcode"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Revert installs the inverse of transaction rev as a new transaction of
// kind "revert": every topic file rev changed goes back to its bytes
// before rev. Later transactions are kept: where they changed other
// blocks of the same file, only rev's blocks are undone; where they
// changed the same blocks, the revert is refused with CONFLICT naming
// each block and the later revision, and nothing changes. Archives are
// append-only, so a transaction that only appended source records cannot
// be reverted. A revert is itself revertible, which re-applies rev.
func Revert(ctx context.Context, e *engine.Engine, rev int64, dryRun bool) (result.RevertResult, error) {
	res := result.RevertResult{Reverts: rev, DryRun: dryRun, Changed: []result.FileDiff{}}
	if err := e.Authorize(trust.OpRevert); err != nil {
		return res, err
	}
	rec := e.Records()
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		target, err := historyFiles(ctx, rec, rev)
		if err != nil {
			return err
		}
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		edits, err := revertEdits(ctx, rec, v, target)
		if err != nil {
			return err
		}
		ch := engine.Change{Kind: "revert", Actor: trust.Owner, Edits: edits, Reverts: rev}
		plan, err := e.Plan(v, ch)
		if err != nil {
			return err
		}
		for _, p := range plan.Changed {
			res.Changed = append(res.Changed, result.FileDiff{Path: p, Diff: plan.Diff(p)})
		}
		if dryRun || len(plan.Changed) == 0 {
			return nil
		}
		out, err := tx.Install(ctx, ch)
		res.Revision = out.Revision
		return err
	})
	return res, err
}

// historyFiles reads the row of rev and refuses what cannot be reverted.
func historyFiles(ctx context.Context, rec *records.Store, rev int64) (records.Revision, error) {
	r, err := rec.Files(ctx, rev)
	if errors.Is(err, records.ErrNoRevision) {
		return r, errcode.Errorf(errcode.NotFound, "no installed transaction has revision %d (see `history`)", rev)
	}
	if err != nil {
		return r, errcode.As(err)
	}
	if r.Kind == "forget" {
		return r, errcode.Errorf(errcode.InvalidArgument,
			"revision %d is a forget: what it removed is gone for good and no revert can bring it back", rev)
	}
	if by := r.ScrubbedBy; by > 0 {
		return r, errcode.Errorf(errcode.InvalidArgument,
			"revision %d cannot be reverted: the forget at revision %d removed its recorded file contents, which held forgotten text", rev, by)
	}
	topics := 0
	for _, p := range r.Changed {
		if strings.HasPrefix(p, "topics/") {
			topics++
		}
	}
	switch {
	case len(r.Changed) == 0:
		return r, errcode.Errorf(errcode.InvalidArgument,
			"revision %d (%s) changed no file: a promotion is undone by rejecting the source, not by a revert", rev, r.Kind)
	case topics == 0:
		return r, errcode.Errorf(errcode.InvalidArgument,
			"revision %d (%s) only appended source records; archives are append-only, so there is nothing to revert", rev, r.Kind)
	case len(r.Files) < topics:
		return r, errcode.Errorf(errcode.InvalidArgument,
			"revision %d was installed before installs recorded file contents; it cannot be reverted", rev)
	}
	return r, nil
}

// revertEdits computes, file by file, the edits that undo target on the
// current view, or a CONFLICT listing every block a later transaction
// changed too.
func revertEdits(ctx context.Context, rec *records.Store, v *engine.View, target records.Revision) ([]result.Edit, error) {
	paths := make([]string, 0, len(target.Files))
	for p := range target.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var edits []result.Edit
	var bad []errcode.Violation
	for _, p := range paths {
		fc := target.Files[p]
		cur, _, exists := v.Topic(p)
		if !exists {
			cur = nil
		}
		merged, conflicts := topic.Merge3(fc.After, cur, fc.Before)
		if len(conflicts) > 0 {
			later, err := laterChanges(ctx, rec, target.Revision, p)
			if err != nil {
				return nil, err
			}
			for _, c := range conflicts {
				bad = append(bad, errcode.Violation{Code: "revert_conflict", Path: p, Line: c.Line,
					Message: fmt.Sprintf("%s was changed again later (%s)", c.Key, later.blame(c.Key))})
			}
			continue
		}
		if ed, ok := result.FileEdit(p, cur, merged); ok {
			edits = append(edits, ed)
		}
	}
	if len(bad) > 0 {
		return nil, &errcode.Error{Code: errcode.Conflict, Violations: bad,
			Message: fmt.Sprintf("cannot revert revision %d: %d block(s) were changed again by later transactions; nothing was changed", target.Revision, len(bad))}
	}
	return edits, nil
}

// laterChange is a transaction after the reverted one that changed the
// same file, with the file's recorded bytes around it.
type laterChange struct {
	revision int64
	kind     string
	file     records.FileChange
}

type laterRevisions []laterChange

func laterChanges(ctx context.Context, rec *records.Store, after int64, path string) (laterRevisions, error) {
	revs, err := rec.FilesAfter(ctx, after)
	if err != nil {
		return nil, errcode.As(err)
	}
	var out laterRevisions
	for _, r := range revs {
		if slices.Contains(r.Changed, path) {
			out = append(out, laterChange{revision: r.Revision, kind: r.Kind, file: r.Files[path]})
		}
	}
	return out, nil
}

// blame names the later revisions that changed the element key, or every
// later revision of the file when the records cannot tell.
func (l laterRevisions) blame(key string) string {
	var who, all []string
	for _, c := range l {
		name := fmt.Sprintf("revision %d, %s", c.revision, c.kind)
		all = append(all, name)
		if topic.ChangedKeys(c.file.Before, c.file.After)[key] {
			who = append(who, name)
		}
	}
	if len(who) == 0 {
		who = all
	}
	if len(who) == 0 {
		return "by an edit outside any recorded transaction"
	}
	return "by " + strings.Join(who, "; ")
}
