package curate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// EditRequest is a new text for a block.
type EditRequest struct {
	// ID is the block: "^id", "id" or "path#^id".
	ID string
	// Text is the new text without the id (Block.Text is the old one).
	Text string
	// Expect, when set, is the block's Raw the text was written against:
	// if the block changed since (another edit, a sleep pass), the edit is
	// refused with CONFLICT instead of overwriting that change.
	Expect string
}

// EditResult is what Edit changed.
type EditResult struct {
	Revision int64    `json:"revision"`
	Changed  []string `json:"changed"` // empty when the text was the same
	ID       string   `json:"id"`
	Path     string   `json:"path"`
	Before   string   `json:"before"`
	After    string   `json:"after"`
	// Reattached lists the footnote labels whose markers the text had
	// lost and that were put back at its end.
	Reattached []string `json:"reattached"`
}

// Edit replaces a block's text in one owner transaction of kind "edit".
// The id and every footnote definition stay; a text that is not one valid
// block is refused with REJECTED, each violation naming its line of the
// text; an empty text is INVALID_ARGUMENT. The same text installs nothing.
func Edit(ctx context.Context, e *engine.Engine, req EditRequest) (EditResult, error) {
	res := EditResult{Changed: []string{}, Reattached: []string{}}
	if err := owner(e, "edit"); err != nil {
		return res, err
	}
	path, id, err := parseRef(req.ID)
	if err != nil {
		return res, err
	}
	text := CleanText(req.Text)
	if text == "" {
		return res, errcode.Errorf(errcode.InvalidArgument, "the new text of ^%s is empty; nothing was changed (to remove the block, use delete)", id)
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
		res.ID, res.Path, res.Before = id, loc.path, topic.BlockText(loc.el)
		if req.Expect != "" && req.Expect != loc.el.Raw {
			return errcode.Errorf(errcode.Conflict, "^%s in %s changed since it was opened for editing (now revision %d); nothing was changed: open it again", id, loc.path, v.Revision)
		}
		raw, reattached, bad := shape(text, loc)
		if len(bad) > 0 {
			vs := make([]errcode.Violation, len(bad))
			for i, b := range bad {
				vs[i] = errcode.Violation{Code: "bad_block_text", Path: loc.path, Message: b}
			}
			return &errcode.Error{Code: errcode.Rejected, Violations: vs,
				Message: fmt.Sprintf("the new text of ^%s is not one valid block: %d problem(s); nothing was changed", id, len(bad))}
		}
		res.Reattached = append(res.Reattached, reattached...)
		res.After = topic.BlockText(topic.Element{Kind: topic.KindBlock, Raw: raw})
		if raw == loc.el.Raw {
			res.Revision = v.Revision
			return nil
		}
		fl := splitLines(loc.data)
		fl.replace(loc.el.Line, loc.el.EndLine, strings.Split(raw, "\n"))
		out, err := tx.Install(ctx, engine.Change{Kind: "edit", Actor: trust.Owner, Base: &v.Revision,
			Edits: []result.Edit{{Op: "replace", Path: loc.path, Content: ptr(string(fl.bytes()))}}})
		if err != nil {
			return textLines(err, loc.path, loc.el.Line, strings.Count(raw, "\n")+1)
		}
		res.Revision, res.Changed = out.Revision, out.Changed
		return nil
	})
	return res, err
}

// CleanText is the text as Edit takes it: CRLF as LF, no blank lines
// around it, no spaces after its last word. "" means nothing was typed.
func CleanText(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return ""
	}
	lines[len(lines)-1] = strings.TrimRight(lines[len(lines)-1], " \t\r")
	return strings.Join(lines, "\n")
}

// shape turns the owner's text into the block's bytes: the text, the
// footnote markers it lost put back at its end, and the id (on the last
// line, or on a line of its own as before or after a fenced code block).
// bad lists why the text cannot be the block, by line of the text.
func shape(text string, loc located) (raw string, reattached, bad []string) {
	id := loc.el.BlockID
	lines := strings.Split(text, "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	if typed := topic.TrailingBlockID(" " + last); typed != "" {
		return "", nil, []string{fmt.Sprintf("line %d ends with a block id (^%s): the block keeps ^%s by itself, so leave ids out of the text", len(lines), typed, id)}
	}
	rawLines := strings.Split(strings.ReplaceAll(loc.el.Raw, "\r\n", "\n"), "\n")
	standalone := strings.TrimSpace(rawLines[len(rawLines)-1]) == "^"+id || closesFence(last)
	build := func(lines []string) []string {
		out := append([]string(nil), lines...)
		if standalone {
			return append(out, "^"+id)
		}
		out[len(out)-1] += " ^" + id
		return out
	}
	f, problems := parseLines(build(lines))
	reattached = missing(f, loc.el)
	if len(reattached) > 0 {
		markers := "[^" + strings.Join(reattached, "][^") + "]"
		// Glued to the last word as the writer writes them; after a space
		// when that word would swallow them (a trailing backslash escapes
		// the "["); on a line of their own after a fenced code block.
		ok := false
		for _, sep := range []string{"", " ", "\n"} {
			try := append([]string(nil), lines...)
			if sep == "\n" || closesFence(last) {
				try = append(try, markers)
			} else {
				try[len(try)-1] += sep + markers
			}
			if tf, tp := parseLines(build(try)); len(missing(tf, loc.el)) == 0 {
				lines, f, problems, ok = try, tf, tp, true
				break
			}
		}
		if !ok {
			return "", nil, []string{fmt.Sprintf("the text lost %s and it cannot be put back at its end: put the marker(s) back where they belong", markers)}
		}
	}
	bad = elementProblems(f, problems, id)
	if len(bad) == 0 {
		defs, had := loc.file.Definitions(), map[string]bool{}
		for _, label := range labels(loc.el) {
			had[label] = true
		}
		for _, r := range f.Elements[0].Refs {
			if _, ok := defs[r.Label]; !ok && !had[r.Label] && topic.IsFootnoteLabel(r.Label) {
				bad = append(bad, fmt.Sprintf("line %d: [^%s] is not a footnote of %s: a citation comes from a source, so the text keeps its own markers or uses one this file defines, never a new one", r.Line, r.Label, loc.path))
			}
		}
	}
	out := build(lines)
	if strings.Contains(loc.el.Raw, "\r\n") { // keep a CRLF file's line endings
		for i := range out {
			out[i] += "\r"
		}
	}
	return strings.Join(out, "\n"), reattached, bad
}

// missing lists the footnote labels of old that no element of f
// references.
func missing(f *topic.File, old topic.Element) []string {
	have := map[string]bool{}
	for _, el := range f.Elements {
		for _, r := range el.Refs {
			have[r.Label] = true
		}
	}
	var out []string
	for _, label := range labels(old) {
		if !have[label] {
			out = append(out, label)
		}
	}
	return out
}

func closesFence(line string) bool {
	l := strings.TrimLeft(line, " ")
	return strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")
}

func parseLines(lines []string) (*topic.File, []topic.Problem) {
	return topic.Parse([]byte(strings.Join(lines, "\n") + "\n"))
}

// elementProblems says, by line of the text, why a parsed candidate is not
// exactly one block with id.
func elementProblems(f *topic.File, problems []topic.Problem, id string) []string {
	var bad []string
	for i, el := range f.Elements {
		if i == len(f.Elements)-1 && el.Kind == topic.KindBlock && el.BlockID == id {
			continue
		}
		switch el.Kind {
		case topic.KindHeading:
			bad = append(bad, fmt.Sprintf("line %d is a heading: a heading is not part of a block (a block is one paragraph or list); remove the '#'s or the line", el.Line))
		case topic.KindFootnote:
			bad = append(bad, fmt.Sprintf("line %d is a footnote definition: the block's definitions are kept for you; keep only its [^e-…] markers in the text", el.Line))
		default:
			bad = append(bad, fmt.Sprintf("line %d: the blank line after it splits the text into two paragraphs; a block is one paragraph or list: remove the blank line, or keep the rest for a block of its own", el.EndLine))
		}
	}
	if len(bad) > 0 {
		return bad
	}
	if len(f.Elements) == 0 {
		return []string{"the text is empty"}
	}
	for _, p := range problems {
		switch {
		case p.Severity != topic.SeverityError, p.Code == topic.CodeUndefinedFootnote:
			continue // definitions are the file's: checked against it
		}
		bad = append(bad, fmt.Sprintf("line %d: %s", p.Line, p.Message))
	}
	return bad
}

// textLines rewrites the violations of a refused install that fall on the
// block's lines to say which line of the text they are on.
func textLines(err error, path string, first, n int) error {
	var ee *errcode.Error
	if !errors.As(err, &ee) || ee.Code != errcode.Rejected {
		return err
	}
	out := *ee
	out.Violations = make([]errcode.Violation, len(ee.Violations))
	for i, v := range ee.Violations {
		if v.Path == path && v.Line >= first && v.Line < first+n {
			v.Message = fmt.Sprintf("line %d of the text: %s", v.Line-first+1, v.Message)
		}
		out.Violations[i] = v
	}
	return &out
}
