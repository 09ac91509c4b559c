package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// RevertResult is what Revert did, or would do on a dry run.
type RevertResult struct {
	// Revision is the revert's own revision; 0 on a dry run.
	Revision int64 `json:"revision"`
	// Reverts is the revision undone.
	Reverts int64      `json:"reverts"`
	DryRun  bool       `json:"dry_run"`
	Changed []FileDiff `json:"changed"`
}

// Revert installs the inverse of transaction rev as a new transaction of
// kind "revert": every topic file rev changed goes back to its bytes
// before rev. Later transactions are kept: where they changed other
// blocks of the same file, only rev's blocks are undone; where they
// changed the same blocks, the revert is refused with CONFLICT naming
// each block and the later revision, and nothing changes. Archives are
// append-only, so a transaction that only appended source records cannot
// be reverted. A revert is itself revertible, which re-applies rev.
func (e *Engine) Revert(ctx context.Context, rev int64, dryRun bool) (RevertResult, error) {
	res := RevertResult{Reverts: rev, DryRun: dryRun, Changed: []FileDiff{}}
	if err := e.gate(trust.OpRevert); err != nil {
		return res, err
	}
	err := e.Locked(ctx, !e.opts.Interactive, func(tx *Tx) error {
		target, err := e.historyFiles(ctx, rev)
		if err != nil {
			return err
		}
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		edits, err := e.revertEdits(ctx, v, target)
		if err != nil {
			return err
		}
		ch := Change{Kind: "revert", Actor: trust.Owner, Edits: edits, Reverts: rev}
		plan, err := e.Plan(v, ch)
		if err != nil {
			return err
		}
		for _, p := range plan.Changed {
			res.Changed = append(res.Changed, FileDiff{Path: p, Diff: plan.Diff(p)})
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

// revisionFiles is one history row as a revert needs it.
type revisionFiles struct {
	revision int64
	kind     string
	changed  []string
	files    map[string]fileChange
}

// historyFiles reads the row of rev and refuses what cannot be reverted.
func (e *Engine) historyFiles(ctx context.Context, rev int64) (revisionFiles, error) {
	r := revisionFiles{revision: rev}
	var changed, files string
	err := e.db.QueryRowContext(ctx, `SELECT kind, changed, files FROM history WHERE revision = ?`, rev).
		Scan(&r.kind, &changed, &files)
	if errors.Is(err, sql.ErrNoRows) {
		return r, Errorf(CodeNotFound, "no installed transaction has revision %d (see `history`)", rev)
	}
	if err != nil {
		return r, Wrap(CodeIO, err, "read history of revision %d", rev)
	}
	_ = json.Unmarshal([]byte(changed), &r.changed)
	if err := json.Unmarshal([]byte(files), &r.files); err != nil {
		return r, Wrap(CodeIO, err, "read the files of revision %d", rev)
	}
	if r.kind == "forget" {
		return r, Errorf(CodeInvalidArgument,
			"revision %d is a forget: what it removed is gone for good and no revert can bring it back", rev)
	}
	if by := scrubbedBy(ctx, e.db, rev); by > 0 {
		return r, Errorf(CodeInvalidArgument,
			"revision %d cannot be reverted: the forget at revision %d removed its recorded file contents, which held forgotten text", rev, by)
	}
	topics := 0
	for _, p := range r.changed {
		if strings.HasPrefix(p, "topics/") {
			topics++
		}
	}
	switch {
	case len(r.changed) == 0:
		return r, Errorf(CodeInvalidArgument,
			"revision %d (%s) changed no file: a promotion is undone by rejecting the source, not by a revert", rev, r.kind)
	case topics == 0:
		return r, Errorf(CodeInvalidArgument,
			"revision %d (%s) only appended source records; archives are append-only, so there is nothing to revert", rev, r.kind)
	case len(r.files) < topics:
		return r, Errorf(CodeInvalidArgument,
			"revision %d was installed before installs recorded file contents; it cannot be reverted", rev)
	}
	return r, nil
}

// revertEdits computes, file by file, the edits that undo target on the
// current view, or a CONFLICT listing every block a later transaction
// changed too.
func (e *Engine) revertEdits(ctx context.Context, v *View, target revisionFiles) ([]Edit, error) {
	paths := make([]string, 0, len(target.files))
	for p := range target.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var edits []Edit
	var bad []Violation
	for _, p := range paths {
		fc := target.files[p]
		cur, _, exists := v.Topic(p)
		if !exists {
			cur = nil
		}
		merged, conflicts := topic.Merge3(fc.After, cur, fc.Before)
		if len(conflicts) > 0 {
			later, err := e.laterChanges(ctx, target.revision, p)
			if err != nil {
				return nil, err
			}
			for _, c := range conflicts {
				bad = append(bad, Violation{Code: "revert_conflict", Path: p, Line: c.Line,
					Message: fmt.Sprintf("%s was changed again later (%s)", c.Key, later.blame(c.Key))})
			}
			continue
		}
		if ed, ok := FileEdit(p, cur, merged); ok {
			edits = append(edits, ed)
		}
	}
	if len(bad) > 0 {
		return nil, &Error{Code: CodeConflict, Violations: bad,
			Message: fmt.Sprintf("cannot revert revision %d: %d block(s) were changed again by later transactions; nothing was changed", target.revision, len(bad))}
	}
	return edits, nil
}

// laterChange is a transaction after the reverted one that changed the
// same file, with the file's recorded bytes around it.
type laterChange struct {
	revision int64
	kind     string
	file     fileChange
}

type laterRevisions []laterChange

func (e *Engine) laterChanges(ctx context.Context, after int64, path string) (laterRevisions, error) {
	rows, err := e.db.QueryContext(ctx, `SELECT revision, kind, changed, files FROM history WHERE revision > ? ORDER BY revision`, after)
	if err != nil {
		return nil, Wrap(CodeIO, err, "read history")
	}
	defer rows.Close()
	var out laterRevisions
	for rows.Next() {
		var c laterChange
		var changed, files string
		if err := rows.Scan(&c.revision, &c.kind, &changed, &files); err != nil {
			return nil, Wrap(CodeIO, err, "read history")
		}
		var paths []string
		var fcs map[string]fileChange
		_ = json.Unmarshal([]byte(changed), &paths)
		_ = json.Unmarshal([]byte(files), &fcs)
		for _, p := range paths {
			if p == path {
				c.file = fcs[path]
				out = append(out, c)
				break
			}
		}
	}
	return out, rows.Err()
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

// scrubbedBy returns the forget revision that scrubbed a history row's
// recorded bytes, or 0.
func scrubbedBy(ctx context.Context, db *sql.DB, rev int64) int64 {
	var by int64
	_ = db.QueryRowContext(ctx, `SELECT scrubbed_by FROM history WHERE revision = ?`, rev).Scan(&by)
	return by
}
