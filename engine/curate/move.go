package curate

import (
	"context"
	"path"
	"sort"
	"strings"
	"unicode"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// MoveRequest moves a block to another topic file.
type MoveRequest struct {
	// ID is the block: "^id", "id" or "path#^id".
	ID string
	// To is the target file: "topics/people/dana.md", "people/dana.md" or
	// "people/dana" (see TopicPath). It is created when missing.
	To string
	// Under, when set, is a heading of the target: the block goes at the
	// end of its section, and a "## Under" section is added at the end of
	// the file when there is none. Empty: the end of the file.
	Under string
	// DryRun installs nothing: the result says what the move would do.
	DryRun bool
}

// MoveResult is what Move changed, or on a dry run would change.
type MoveResult struct {
	// Revision is the move's revision; on a dry run the current one.
	Revision int64    `json:"revision"`
	DryRun   bool     `json:"dry_run"`
	Changed  []string `json:"changed"`
	ID       string   `json:"id"`
	From     string   `json:"from"`
	To       string   `json:"to"`
	Under    string   `json:"under,omitempty"`
	// Created is true when the target file was created; FileDeleted when
	// the source file was left with headings only and removed.
	Created     bool `json:"created"`
	FileDeleted bool `json:"file_deleted"`
	// Links are the links to the block that were rewritten to follow it,
	// where they were before the move.
	Links []Link `json:"links"`
	// Footnotes are the block's footnote labels in the target file: a label
	// the target used for other sources is renamed (to the target's label
	// for the same citation when it has one).
	Footnotes []string `json:"footnotes"`
}

// TopicPath turns what a person types for a topic file into its workspace
// path: "topics/" in front and ".md" at the end when missing.
func TopicPath(p string) string {
	p = strings.TrimPrefix(strings.TrimSpace(p), "./")
	if p == "" {
		return ""
	}
	if !strings.HasPrefix(p, "topics/") {
		p = "topics/" + p
	}
	if !strings.HasSuffix(p, ".md") {
		p += ".md"
	}
	return p
}

// Move moves a block to another topic file in one owner transaction of
// kind "move": the id stays, footnote definitions go along with their
// source paths recomputed, the block's relative links are rewritten for
// its new place and every link to it follows. A dry run installs nothing
// (the install's workspace-wide validation runs only for real).
func Move(ctx context.Context, e *engine.Engine, req MoveRequest) (MoveResult, error) {
	res := MoveResult{DryRun: req.DryRun, Changed: []string{}, Links: []Link{}, Footnotes: []string{}}
	if err := owner(e, "move"); err != nil {
		return res, err
	}
	from, id, err := parseRef(req.ID)
	if err != nil {
		return res, err
	}
	to := TopicPath(req.To)
	if msg := e.CheckTopicPath(to); msg != "" {
		return res, errcode.Errorf(errcode.InvalidArgument, "cannot move to %q: %s", req.To, msg)
	}
	under := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(req.Under), "#"))
	if strings.ContainsAny(under, "\r\n") {
		return res, errcode.Errorf(errcode.InvalidArgument, "a heading is one line")
	}
	res.ID, res.To, res.Under = id, to, under
	err = e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		edits, err := moveEdits(v, from, id, &res)
		if err != nil {
			return err
		}
		out, err := install(ctx, tx, v, engine.Change{Kind: "move", Actor: trust.Owner, Base: &v.Revision, Edits: edits}, req.DryRun)
		res.Revision, res.Changed = out.Revision, out.Changed
		return err
	})
	return res, err
}

// moveEdits are the edits that move block id of file from ("": wherever
// it is) to res.To under res.Under in v; they fill in res.
func moveEdits(v *engine.View, from, id string, res *MoveResult) ([]result.Edit, error) {
	to, under := res.To, res.Under
	loc, err := find(v, from, id)
	if err != nil {
		return nil, err
	}
	res.From = loc.path
	if loc.path == to {
		return nil, errcode.Errorf(errcode.InvalidArgument, "^%s is in %s already", id, to)
	}
	m := &mover{v: v, loc: loc, to: to, files: map[string]*fileLines{}}
	res.Links = m.followLinks()
	_, toFile, exists := v.Topic(to)
	if !exists {
		toData := []byte("# " + titleOf(to) + "\n")
		toFile, _ = topic.Parse(toData)
		m.files[to] = splitLines(toData)
	}
	res.Created = !exists
	block, notes, final := m.carry(toFile)
	res.Footnotes = append(res.Footnotes, final...)
	// The source file: the block and the definitions only it used go.
	src := loc
	src.data = m.lines(loc.path).bytes()
	rest, _ := cut(src)
	if headingsOnly(rest) && !keepFile(v, loc.path, id) {
		m.files[loc.path], res.FileDeleted = nil, true
	} else {
		m.files[loc.path] = splitLines(rest)
	}
	// The target file: the block where asked, the definitions at the end.
	t := m.lines(to)
	at, heading := insertPoint(toFile, under)
	if heading != "" {
		block = append([]string{heading, ""}, block...)
	}
	t.insertAfter(at, block)
	for _, n := range notes {
		t.appendElement([]string{topic.FormatDefinition(n)})
	}
	return m.edits(), nil
}

// mover holds the files a move rewrites (nil: deleted), as lines.
type mover struct {
	v     *engine.View
	loc   located
	to    string
	files map[string]*fileLines
}

// lines returns the working copy of a topic file.
func (m *mover) lines(p string) *fileLines {
	if f, ok := m.files[p]; ok {
		return f
	}
	data, _, _ := m.v.Topic(p)
	m.files[p] = splitLines(data)
	return m.files[p]
}

// followLinks rewrites every link to the block for its new file. Lines
// keep their numbers, so elements found before still sit where they were.
func (m *mover) followLinks() []Link {
	links := linksTo(m.v, m.loc.path, m.loc.el.BlockID)
	for _, l := range links {
		dest := "#^" + m.loc.el.BlockID
		if l.Path != m.to {
			dest = topic.EscapePath(topic.RelPath(l.Path, m.to)) + dest
		}
		f := m.lines(l.Path)
		for i := l.first; i <= l.last && i <= len(f.lines); i++ {
			f.lines[i-1], _ = rewriteDest(f.lines[i-1], l.Target, dest)
		}
	}
	return links
}

// carry returns the block's lines for the target file and the footnote
// definitions to add there: relative links and citation paths recomputed
// for the new directory, labels the target uses otherwise renamed.
func (m *mover) carry(toFile *topic.File) (lines []string, notes []topic.Definition, final []string) {
	from, id := m.loc.path, m.loc.el.BlockID
	lines = strings.Split(m.loc.el.Raw, "\n")
	rewrite := func(old, new string) {
		for i := range lines {
			lines[i], _ = rewriteDest(lines[i], old, new)
		}
	}
	for _, l := range m.loc.el.Links {
		target := linkTarget(from, l)
		if target == "" || (l.Path == "" && l.BlockID == id) {
			continue // leaves the workspace, or the block's link to itself
		}
		dest := ""
		if target != m.to {
			dest = topic.EscapePath(topic.RelPath(m.to, target))
		}
		if l.Anchor != "" {
			dest += "#" + l.Anchor
		}
		if dest != l.Target {
			rewrite(l.Target, dest)
		}
	}
	defs := m.loc.file.Definitions()
	taken := map[string]bool{}
	existing := toFile.Definitions()
	for _, el := range toFile.Elements {
		if el.Kind == topic.KindFootnote {
			taken[el.Label] = true
		}
	}
	for _, label := range labels(m.loc.el) {
		d, ok := defs[label]
		if !ok {
			continue // undefined already: the install judges it as before
		}
		nd := topic.Definition{Label: label, Date: d.Date}
		for _, c := range d.Sources {
			if abs := topic.ResolvePath(from, c.Path); abs != "" {
				c.Path = topic.RelPath(m.to, abs)
			}
			nd.Sources = append(nd.Sources, c)
		}
		if old, ok := existing[label]; ok && sameCitation(*old, nd) {
			final = append(final, label) // the target cites the same already
			continue
		}
		if taken[label] {
			nd.Label = ""
			for _, el := range toFile.Elements { // the same citation under another label
				if el.Def != nil && sameCitation(*el.Def, nd) {
					nd.Label = el.Def.Label
				}
			}
			if nd.Label == "" {
				nd.Label = topic.UniqueFootnoteLabel(label+"\x00"+m.to, func(l string) bool { return taken[l] || defs[l] != nil })
			}
			for i := range lines {
				lines[i] = strings.ReplaceAll(lines[i], "[^"+label+"]", "[^"+nd.Label+"]")
			}
		}
		final = append(final, nd.Label)
		if !taken[nd.Label] {
			taken[nd.Label] = true
			notes = append(notes, nd)
		}
	}
	return lines, notes, final
}

// sameCitation reports whether two definitions cite the same sources at
// the same date (their labels aside).
func sameCitation(a, b topic.Definition) bool {
	a.Label, b.Label = "", ""
	return topic.FormatDefinition(a) == topic.FormatDefinition(b)
}

// edits turns the working copies into the transaction's edits.
func (m *mover) edits() []result.Edit {
	paths := make([]string, 0, len(m.files))
	for p := range m.files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []result.Edit
	for _, p := range paths {
		cur, _, ok := m.v.Topic(p)
		if !ok {
			cur = nil
		}
		var want []byte
		if f := m.files[p]; f != nil {
			want = f.bytes()
		}
		if ed, ok := result.FileEdit(p, cur, want); ok {
			out = append(out, ed)
		}
	}
	return out
}

// insertPoint is the line after which a moved block goes: the end of the
// section under heading, or of the file's text (before its footnote
// definitions). When the heading is missing it returns the heading line
// to add with the block.
func insertPoint(f *topic.File, heading string) (int, string) {
	lastText := func(els []topic.Element, fallback int) int {
		at := fallback
		for _, el := range els {
			if el.Kind != topic.KindFootnote {
				at = el.EndLine
			}
		}
		return at
	}
	if heading == "" {
		return lastText(f.Elements, 0), ""
	}
	for i, el := range f.Elements {
		if el.Kind != topic.KindHeading || !strings.EqualFold(el.Heading, heading) {
			continue
		}
		end := len(f.Elements)
		for j := i + 1; j < len(f.Elements); j++ {
			if f.Elements[j].Kind == topic.KindHeading && f.Elements[j].Level <= el.Level {
				end = j
				break
			}
		}
		return lastText(f.Elements[i+1:end], el.EndLine), ""
	}
	return lastText(f.Elements, 0), "## " + heading
}

// titleOf is the title of a new topic file, from its name:
// "topics/people/dana-scott.md" is "Dana Scott".
func titleOf(p string) string {
	name := strings.TrimSuffix(path.Base(p), ".md")
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || unicode.IsSpace(r) })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	if len(words) == 0 {
		return name
	}
	return strings.Join(words, " ")
}
