package curate

import (
	"context"
	"fmt"
	"sort"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// DeleteResult is what Delete removed, or on a dry run would remove.
type DeleteResult struct {
	// Revision is the delete's revision; on a dry run the current one.
	Revision int64    `json:"revision"`
	DryRun   bool     `json:"dry_run"`
	Changed  []string `json:"changed"`
	ID       string   `json:"id"`
	Path     string   `json:"path"`
	// Text is the block's text as it was (without its id).
	Text string `json:"text"`
	// Footnotes are the definitions that went with it: those no other
	// element of the file used.
	Footnotes []string `json:"footnotes"`
	// FileDeleted is true when the file was left with headings only and
	// was removed with the block.
	FileDeleted bool `json:"file_deleted"`
}

// Delete removes a block in one owner transaction of kind "delete". It is
// refused (REJECTED, one violation per link) while other blocks link to
// it. A dry run installs nothing and says what the delete would change
// (the install's workspace-wide validation runs only for real).
func Delete(ctx context.Context, e *engine.Engine, ref string, dryRun bool) (DeleteResult, error) {
	res := DeleteResult{DryRun: dryRun, Changed: []string{}, Footnotes: []string{}}
	if err := owner(e, "delete"); err != nil {
		return res, err
	}
	path, id, err := parseRef(ref)
	if err != nil {
		return res, err
	}
	err = e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		loc, err := find(v, path, id)
		if err != nil {
			return err
		}
		res.ID, res.Path, res.Text = id, loc.path, topic.BlockText(loc.el)
		if links := linksTo(v, loc.path, id); len(links) > 0 {
			return linkedError(id, loc.path, links)
		}
		rest, dropped := cut(loc)
		res.Footnotes = append(res.Footnotes, dropped...)
		ed := result.Edit{Op: "replace", Path: loc.path, Content: ptr(string(rest))}
		if headingsOnly(rest) && !keepFile(v, loc.path, "") {
			ed, res.FileDeleted = result.Edit{Op: "delete", Path: loc.path}, true
		}
		out, err := install(ctx, tx, v, engine.Change{Kind: "delete", Actor: trust.Owner, Base: &v.Revision, Edits: []result.Edit{ed}}, dryRun)
		res.Revision, res.Changed = out.Revision, out.Changed
		return err
	})
	return res, err
}

// linkedError is the refusal of a delete that would break links: every
// link, with the file, line and block it is in.
func linkedError(id, path string, links []Link) error {
	vs := make([]errcode.Violation, len(links))
	for i, l := range links {
		vs[i] = errcode.Violation{Code: "linked_block", Path: l.Path, Line: l.Line,
			Message: fmt.Sprintf("%s links to ^%s (%s)", l.who(), id, l.Target)}
	}
	return &errcode.Error{Code: errcode.Rejected, Violations: vs,
		Message: fmt.Sprintf("^%s in %s is linked from %d place(s): change or remove those links first (or move the block: links follow a move); nothing was changed", id, path, len(links))}
}

// cut returns the block's file without the block and without the footnote
// definitions only it used, and the labels of those definitions.
func cut(loc located) ([]byte, []string) {
	type span struct{ first, last int }
	spans := []span{{loc.el.Line, loc.el.EndLine}}
	used := map[string]bool{}
	for _, el := range loc.file.Elements {
		if el.Kind == topic.KindBlock && el.BlockID == loc.el.BlockID {
			continue
		}
		for _, r := range el.Refs {
			used[r.Label] = true
		}
	}
	var dropped []string
	for _, label := range labels(loc.el) {
		if used[label] {
			continue
		}
		found := false
		for _, el := range loc.file.Elements {
			if el.Kind == topic.KindFootnote && el.Label == label {
				spans = append(spans, span{el.Line, el.EndLine})
				found = true
			}
		}
		if found {
			dropped = append(dropped, label)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].first > spans[j].first })
	fl := splitLines(loc.data)
	for _, s := range spans {
		fl.remove(s.first, s.last)
	}
	return fl.bytes(), dropped
}

func ptr(s string) *string { return &s }

// install installs a change, or on a dry run only plans it: the result
// then names the current revision and the files that would change.
func install(ctx context.Context, tx *engine.Tx, v *engine.View, ch engine.Change, dryRun bool) (result.UpdateResult, error) {
	if !dryRun {
		return tx.Install(ctx, ch)
	}
	plan, err := tx.Engine().Plan(v, ch)
	if err != nil {
		return result.UpdateResult{Revision: v.Revision, Changed: []string{}}, err
	}
	return result.UpdateResult{Revision: v.Revision, Changed: append([]string{}, plan.Changed...)}, nil
}
