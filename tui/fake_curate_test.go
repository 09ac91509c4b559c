package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"scriptorium/engine/curate"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// The fake's corrections of a block, done the way engine/curate does them
// on its in-memory topics (core.md blocks live in f.core).

const corePath = "topics/core.md"

// locate finds a block by "path#^id" or "^id"; f.mu is held.
func (f *fakeBackend) locate(ref string) (path string, i int, b result.BlockView, err error) {
	p, id, ok := strings.Cut(ref, "#^")
	if !ok {
		p, id = "", strings.TrimPrefix(ref, "^")
	}
	for path, t := range f.topics {
		if p != "" && path != p {
			continue
		}
		for i, b := range t.Blocks {
			if b.Ref == id {
				return path, i, b, nil
			}
		}
	}
	return "", 0, b, errcode.Errorf(errcode.NotFound, "no block ^%s in any topic file", id)
}

func (f *fakeBackend) FindBlock(_ context.Context, ref string) (curate.Block, error) {
	if err := f.call("FindBlock"); err != nil {
		return curate.Block{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	path, _, b, err := f.locate(ref)
	if err != nil {
		return curate.Block{}, err
	}
	out := curate.Block{ID: b.Ref, Path: path, Line: b.Line, Text: b.Text, Raw: b.Text + " ^" + b.Ref, Trust: b.Trust,
		Footnotes: []curate.Footnote{}, LinkedFrom: slices.Clone(f.links[b.Ref])}
	for _, fn := range b.Footnotes {
		c := curate.Footnote{Label: fn.Label, Date: fn.Time}
		for _, s := range fn.Sources {
			c.Sources = append(c.Sources, s.Ref)
		}
		out.Footnotes = append(out.Footnotes, c)
	}
	return out, nil
}

func (f *fakeBackend) EditBlock(_ context.Context, req curate.EditRequest) (curate.EditResult, error) {
	if err := f.call("EditBlock"); err != nil {
		return curate.EditResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	path, i, b, err := f.locate(req.ID)
	if err != nil {
		return curate.EditResult{}, err
	}
	text := curate.CleanText(req.Text)
	switch {
	case text == "":
		return curate.EditResult{}, errcode.Errorf(errcode.InvalidArgument, "the new text of ^%s is empty", b.Ref)
	case req.Expect != "" && req.Expect != b.Text+" ^"+b.Ref:
		return curate.EditResult{}, errcode.Errorf(errcode.Conflict, "^%s changed since it was opened for editing", b.Ref)
	case strings.Contains(text, "\n\n"):
		line := strings.Count(text[:strings.Index(text, "\n\n")], "\n") + 1
		return curate.EditResult{}, &errcode.Error{Code: errcode.Rejected,
			Message: fmt.Sprintf("the new text of ^%s is not one valid block: 1 problem(s); nothing was changed", b.Ref),
			Violations: []errcode.Violation{{Code: "bad_block_text", Path: path,
				Message: fmt.Sprintf("line %d: the blank line after it splits the text into two paragraphs", line)}}}
	}
	before := b.Text
	f.topics[path].Blocks[i].Text = text
	if path == corePath {
		f.core[slices.IndexFunc(f.core, func(c result.CoreBlock) bool { return c.ID == b.Ref })].Text = text
		f.syncCoreTopic()
	}
	f.revision++
	return curate.EditResult{Revision: f.revision, Changed: []string{path}, ID: b.Ref, Path: path, Before: before, After: text,
		Reattached: []string{}}, nil
}

// take removes a block from its file, and the file when no block is left
// (core.md stays), reporting that; f.mu is held.
func (f *fakeBackend) take(path string, i int) (result.BlockView, bool) {
	t := f.topics[path]
	b := t.Blocks[i]
	if path == corePath {
		f.core = slices.DeleteFunc(f.core, func(c result.CoreBlock) bool { return c.ID == b.Ref })
		f.syncCoreTopic()
		return b, false
	}
	t.Blocks = slices.Delete(t.Blocks, i, i+1)
	if len(t.Blocks) == 0 {
		delete(f.topics, path)
		return b, true
	}
	return b, false
}

func (f *fakeBackend) DeleteBlock(_ context.Context, ref string, dryRun bool) (curate.DeleteResult, error) {
	if err := f.call("DeleteBlock"); err != nil {
		return curate.DeleteResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	path, i, b, err := f.locate(ref)
	if err != nil {
		return curate.DeleteResult{}, err
	}
	if links := f.links[b.Ref]; len(links) > 0 {
		var vs []errcode.Violation
		for _, l := range links {
			vs = append(vs, errcode.Violation{Code: "linked_block", Path: l.Path, Line: l.Line,
				Message: fmt.Sprintf("block ^%s links to ^%s (%s)", l.Block, b.Ref, l.Target)})
		}
		return curate.DeleteResult{}, &errcode.Error{Code: errcode.Rejected, Violations: vs,
			Message: fmt.Sprintf("^%s in %s is linked from %d place(s): change or remove those links first; nothing was changed", b.Ref, path, len(links))}
	}
	res := curate.DeleteResult{Revision: f.revision, DryRun: dryRun, Changed: []string{path}, ID: b.Ref, Path: path, Text: b.Text, Footnotes: []string{}}
	for _, fn := range b.Footnotes {
		res.Footnotes = append(res.Footnotes, fn.Label)
	}
	res.FileDeleted = path != corePath && len(f.topics[path].Blocks) == 1
	if dryRun {
		return res, nil
	}
	f.take(path, i)
	f.revision++
	res.Revision = f.revision
	return res, nil
}

func (f *fakeBackend) MoveBlock(_ context.Context, req curate.MoveRequest) (curate.MoveResult, error) {
	if err := f.call("MoveBlock"); err != nil {
		return curate.MoveResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	path, i, b, err := f.locate(req.ID)
	if err != nil {
		return curate.MoveResult{}, err
	}
	to := curate.TopicPath(req.To)
	if to == path {
		return curate.MoveResult{}, errcode.Errorf(errcode.InvalidArgument, "^%s is in %s already", b.Ref, to)
	}
	_, exists := f.topics[to]
	res := curate.MoveResult{Revision: f.revision, DryRun: req.DryRun, Changed: []string{path, to}, ID: b.Ref, From: path, To: to,
		Under: req.Under, Created: !exists, Links: slices.Clone(f.links[b.Ref]), Footnotes: []string{}}
	for _, fn := range b.Footnotes {
		res.Footnotes = append(res.Footnotes, fn.Label)
	}
	if res.Links == nil {
		res.Links = []curate.Link{}
	}
	res.FileDeleted = path != corePath && len(f.topics[path].Blocks) == 1
	if req.DryRun {
		return res, nil
	}
	f.take(path, i)
	if !exists {
		f.topics[to] = &result.TopicView{Path: to}
	}
	b.Path = to
	if to == corePath {
		f.core = append(f.core, result.CoreBlock{ID: b.Ref, Text: b.Text, Tokens: 30, Footnotes: b.Footnotes})
		f.syncCoreTopic()
	} else {
		f.topics[to].Blocks = append(f.topics[to].Blocks, b)
	}
	f.revision++
	res.Revision = f.revision
	return res, nil
}
