package curate

import (
	"context"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// MoveAllRequest moves every block of one topic file to another: a
// person's memory filed under two names brought into one file (the
// writer's people/owner.md into the owner's name's file).
type MoveAllRequest struct {
	// From and To are topic files (see TopicPath). From must exist; To is
	// created when missing.
	From, To string
	// Title heads To when the move creates it; "" names it from its path.
	Title string
	// Rewrite, when set, gives each block's text its new wording before
	// it moves ("The owner prefers…" becomes "Sigrid prefers…"). It is
	// handed the block's text without its id and returns the new text,
	// footnote markers kept; the install validates the result.
	Rewrite func(string) string
	// DryRun installs nothing: the result says what the move would do.
	DryRun bool
}

// MoveAllResult is what MoveAll changed, or on a dry run would change.
type MoveAllResult struct {
	Revision int64    `json:"revision"`
	DryRun   bool     `json:"dry_run"`
	Changed  []string `json:"changed"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	// Moved are the ids of the blocks moved, in From's order; Rewritten
	// those whose text Rewrite changed.
	Moved     []string `json:"moved"`
	Rewritten []string `json:"rewritten"`
	// Created is true when To was created; FileDeleted when From was left
	// with headings only and removed.
	Created     bool `json:"created"`
	FileDeleted bool `json:"file_deleted"`
	// Links are the links to the moved blocks that were rewritten to
	// follow them, where they were before the move.
	Links []Link `json:"links"`
}

// MoveAll moves every block of req.From to req.To in one owner
// transaction of kind "move", which `revert` undoes whole: each block as
// Move moves it (its id and footnotes kept, under the heading it had, the
// links to it following it), one after the other on the would-be state of
// the previous one, and the whole installed at once. A block id or a
// footnote is never lost: the install validates the result, and refuses
// it whole.
func MoveAll(ctx context.Context, e *engine.Engine, req MoveAllRequest) (MoveAllResult, error) {
	res := MoveAllResult{DryRun: req.DryRun, Changed: []string{}, Moved: []string{}, Rewritten: []string{}, Links: []Link{}}
	if err := owner(e, "move"); err != nil {
		return res, err
	}
	from, to := TopicPath(req.From), TopicPath(req.To)
	if msg := e.CheckTopicPath(to); msg != "" {
		return res, errcode.Errorf(errcode.InvalidArgument, "cannot move to %q: %s", req.To, msg)
	}
	if strings.ContainsAny(req.Title, "\r\n") {
		return res, errcode.Errorf(errcode.InvalidArgument, "a title is one line")
	}
	res.From, res.To = from, to
	if from == to {
		return res, errcode.Errorf(errcode.InvalidArgument, "%s is the file to move from", to)
	}
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v0, err := tx.View(ctx)
		if err != nil {
			return err
		}
		data, f, ok := v0.Topic(from)
		if !ok {
			return errcode.Errorf(errcode.NotFound, "no topic file %s", from)
		}
		_, _, exists := v0.Topic(to)
		res.Created = !exists
		v := v0
		// step plans one change on the would-be state so far.
		step := func(edits []result.Edit) error {
			if len(edits) == 0 {
				return nil
			}
			plan, err := e.Plan(v, engine.Change{Kind: "move", Actor: trust.Owner, Edits: edits})
			if err != nil {
				return err
			}
			v = plan.After
			return nil
		}
		var first []result.Edit
		if !exists && req.Title != "" {
			first = append(first, result.Edit{Op: "create", Path: to, Content: ptr("# " + req.Title + "\n")})
		}
		if req.Rewrite != nil {
			rewritten, ids := rewriteBlocks(data, f, req.Rewrite)
			res.Rewritten = append(res.Rewritten, ids...)
			if ed, ok := result.FileEdit(from, data, rewritten); ok {
				first = append(first, ed)
			}
		}
		if err := step(first); err != nil {
			return err
		}
		heading := ""
		for _, el := range f.Elements {
			if el.Kind == topic.KindHeading && el.Level > 1 {
				heading = el.Heading
			}
			if el.Kind != topic.KindBlock || el.BlockID == "" {
				continue
			}
			one := MoveResult{To: to, Under: heading}
			edits, err := moveEdits(v, from, el.BlockID, &one)
			if err != nil {
				return err
			}
			if err := step(edits); err != nil {
				return err
			}
			res.Moved = append(res.Moved, el.BlockID)
			res.Links = append(res.Links, one.Links...)
			res.FileDeleted = one.FileDeleted
		}
		if len(res.Moved) == 0 {
			return errcode.Errorf(errcode.NotFound, "%s holds no block to move", from)
		}
		out, err := install(ctx, tx, v0, engine.Change{Kind: "move", Actor: trust.Owner, Base: &v0.Revision,
			Edits: diffEdits(v0, v)}, req.DryRun)
		res.Revision, res.Changed = out.Revision, out.Changed
		return err
	})
	return res, err
}

// rewriteBlocks is a topic file with each block's text rewritten, and the
// ids of the blocks whose text changed. A block's id stays as it was.
func rewriteBlocks(data []byte, f *topic.File, rewrite func(string) string) ([]byte, []string) {
	fl := splitLines(data)
	var ids []string
	blocks := f.Blocks()
	for i := len(blocks) - 1; i >= 0; i-- { // bottom up: line numbers above stay
		el := blocks[i]
		old := topic.BlockText(el)
		text := rewrite(old)
		if text == old || !strings.HasPrefix(el.Raw, old) {
			continue // the text is not the start of the raw block (CRLF lines): left as it is
		}
		fl.replace(el.Line, el.EndLine, strings.Split(text+el.Raw[len(old):], "\n"))
		ids = append([]string{el.BlockID}, ids...)
	}
	return fl.bytes(), ids
}

// diffEdits are the whole-file edits that take v0 to v, in path order.
func diffEdits(v0, v *engine.View) []result.Edit {
	paths := map[string]bool{}
	for _, p := range v0.TopicPaths() {
		paths[p] = true
	}
	for _, p := range v.TopicPaths() {
		paths[p] = true
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	var out []result.Edit
	for _, p := range sorted {
		before, _, ok0 := v0.Topic(p)
		after, _, ok1 := v.Topic(p)
		if !ok0 {
			before = nil
		}
		if !ok1 {
			after = nil
		}
		if ed, ok := result.FileEdit(p, before, after); ok {
			out = append(out, ed)
		}
	}
	return out
}
