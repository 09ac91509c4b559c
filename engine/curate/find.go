package curate

import (
	"context"
	"fmt"
	"strings"

	"scriptorium/engine"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// Block is one block as the owner's edit, delete and move see it: where
// it is, its text, its citations and who links to it.
type Block struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Line int    `json:"line"`
	// Text is the block without its id, as the editor shows it (LF line
	// endings, footnote markers kept).
	Text string `json:"text"`
	// Raw is the block's exact bytes, id included: EditRequest.Expect.
	Raw       string     `json:"-"`
	Trust     string     `json:"trust"` // "trusted" or "pending"
	Footnotes []Footnote `json:"footnotes"`
	// LinkedFrom lists the links to the block in other elements: what a
	// delete is refused for and what a move rewrites.
	LinkedFrom []Link `json:"linked_from"`
}

// Footnote is one citation of a block.
type Footnote struct {
	Label   string   `json:"label"`
	Date    string   `json:"date"`
	Sources []string `json:"sources"` // source-ids
}

// Link is a link to a block: the file and line it is written on, and the
// block it is part of ("" for a heading).
type Link struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Block  string `json:"block,omitempty"`
	Target string `json:"target"` // the destination as written

	first, last int // the lines of the element it is in
}

// String names the link for a person: "block ^c0ffee03 (topics/x.md:9)".
func (l Link) String() string { return fmt.Sprintf("%s (%s:%d)", l.who(), l.Path, l.Line) }

// who is the element the link is written in.
func (l Link) who() string {
	if l.Block == "" {
		return "a heading"
	}
	return "block ^" + l.Block
}

// Find reads a block by reference ("^id", "id" or "path#^id") from the
// current workspace, without the write lock.
func Find(ctx context.Context, e *engine.Engine, ref string) (Block, error) {
	if err := e.Authorize(trust.OpGet); err != nil {
		return Block{}, err
	}
	path, id, err := parseRef(ref)
	if err != nil {
		return Block{}, err
	}
	v, err := e.View(ctx)
	if err != nil {
		return Block{}, err
	}
	loc, err := find(v, path, id)
	if err != nil {
		return Block{}, err
	}
	return loc.block(v), nil
}

// owner refuses every tier but the owner's: correcting memory by hand is
// the owner's alone (a paired caller may only append).
func owner(e *engine.Engine, verb string) error {
	if t := e.Options().Tier; t != trust.Owner {
		return &errcode.Error{Code: errcode.Forbidden,
			Message: fmt.Sprintf("only the owner may %s a block (this caller is %s)", verb, t)}
	}
	return e.Authorize(trust.OpUpdate)
}

// parseRef splits "^id", "id" or "path#^id".
func parseRef(ref string) (path, id string, err error) {
	ref = strings.TrimSpace(ref)
	if p, anchor, ok := strings.Cut(ref, "#"); ok {
		path, ref = strings.TrimPrefix(p, "./"), anchor
		if !strings.HasPrefix(ref, "^") {
			return "", "", errcode.Errorf(errcode.InvalidArgument, "%q: a block reference is ^<id> or <path>#^<id>", p+"#"+anchor)
		}
	}
	id = strings.TrimPrefix(ref, "^")
	if !topic.IsBlockID(id) {
		return "", "", errcode.Errorf(errcode.InvalidArgument, "%q is not a block id (^ and 8 lowercase hex digits, as `get` and the Topics pane show them)", ref)
	}
	return path, id, nil
}

// located is a block found in a view.
type located struct {
	path string
	data []byte
	file *topic.File
	el   topic.Element
}

// find looks the block up in path, or in every topic file when path is "".
func find(v *engine.View, path, id string) (located, error) {
	if path != "" {
		if !strings.HasPrefix(path, "topics/") {
			path = "topics/" + path
		}
		data, f, ok := v.Topic(path)
		if !ok {
			return located{}, errcode.Errorf(errcode.NotFound, "no topic file %s", path)
		}
		el, ok := f.Block(id)
		if !ok {
			return located{}, errcode.Errorf(errcode.NotFound, "no block ^%s in %s", id, path)
		}
		return located{path: path, data: data, file: f, el: el}, nil
	}
	for _, p := range v.TopicPaths() {
		data, f, _ := v.Topic(p)
		if el, ok := f.Block(id); ok {
			return located{path: p, data: data, file: f, el: el}, nil
		}
	}
	return located{}, errcode.Errorf(errcode.NotFound, "no block ^%s in any topic file (see `search` or the Topics pane)", id)
}

func (l located) block(v *engine.View) Block {
	b := Block{ID: l.el.BlockID, Path: l.path, Line: l.el.Line, Text: topic.BlockText(l.el), Raw: l.el.Raw,
		Trust: "pending", Footnotes: []Footnote{}, LinkedFrom: linksTo(v, l.path, l.el.BlockID)}
	if v.BlockTrusted(l.path, l.el) {
		b.Trust = "trusted"
	}
	defs := l.file.Definitions()
	for _, label := range labels(l.el) {
		fn := Footnote{Label: label, Sources: []string{}}
		if d, ok := defs[label]; ok {
			fn.Date = d.Date
			for _, c := range d.Sources {
				fn.Sources = append(fn.Sources, c.SourceID)
			}
		}
		b.Footnotes = append(b.Footnotes, fn)
	}
	return b
}

// labels lists the footnote labels an element references, in order, once.
func labels(el topic.Element) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range el.Refs {
		if !seen[r.Label] {
			seen[r.Label] = true
			out = append(out, r.Label)
		}
	}
	return out
}

// linkTarget is the workspace path a link in file p points into.
func linkTarget(p string, l topic.Link) string {
	if l.Path == "" {
		return p
	}
	return topic.ResolvePath(p, l.Path)
}

// linksTo lists every link to block id of file path, except those in the
// block itself.
func linksTo(v *engine.View, path, id string) []Link {
	out := []Link{}
	for _, p := range v.TopicPaths() {
		_, f, _ := v.Topic(p)
		for _, el := range f.Elements {
			if p == path && el.Kind == topic.KindBlock && el.BlockID == id {
				continue
			}
			for _, l := range el.Links {
				if l.BlockID == id && linkTarget(p, l) == path {
					out = append(out, Link{Path: p, Line: l.Line, Block: el.BlockID, Target: l.Target, first: el.Line, last: el.EndLine})
				}
			}
		}
	}
	return out
}

// keepFile reports whether a file left with headings only stays: core.md
// is the owner's standing file, and a file other files link to would
// leave those links broken.
func keepFile(v *engine.View, path, movedID string) bool {
	if path == render.CoreTopicPath {
		return true
	}
	for _, p := range v.TopicPaths() {
		if p == path {
			continue
		}
		_, f, _ := v.Topic(p)
		for _, el := range f.Elements {
			for _, l := range el.Links {
				if l.Path != "" && linkTarget(p, l) == path && (movedID == "" || l.BlockID != movedID) {
					return true
				}
			}
		}
	}
	return false
}

// headingsOnly reports whether a file holds nothing but headings.
func headingsOnly(data []byte) bool {
	f, _ := topic.Parse(data)
	for _, el := range f.Elements {
		if el.Kind != topic.KindHeading {
			return false
		}
	}
	return true
}

// First is the start of a block's text for a confirmation or a status
// line: the first words, on one line.
func First(text string, max int) string {
	s := strings.Join(strings.Fields(text), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}
