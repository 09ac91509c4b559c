package writer

import (
	"slices"
	"strings"

	"scriptorium/workspace/topic"
)

// topicEdit is one topic file being rewritten by Redistill: its elements
// in order, with blocks removed, amended in place or added under their
// heading. Everything it does not touch keeps its bytes, so the owner's
// review (and a rebase onto later edits) sees only what changed.
type topicEdit struct {
	path    string
	before  []byte          // the current bytes; nil for a new file
	els     []topic.Element // the file's elements, changed in place
	labels  map[string]bool // footnote labels in use in the file
	dropped map[string]bool // labels only removed blocks referenced
	changed bool
}

// remove drops the block id and marks its footnotes for removal.
func (te *topicEdit) remove(id string) {
	for i, el := range te.els {
		if el.Kind == topic.KindBlock && el.BlockID == id {
			if te.dropped == nil {
				te.dropped = map[string]bool{}
			}
			for _, ref := range el.Refs {
				te.dropped[ref.Label] = true
			}
			te.els = append(te.els[:i], te.els[i+1:]...)
			te.changed = true
			return
		}
	}
}

// footnote makes the definition of cites under a new label and returns
// the label and its element; "" when there is nothing to cite.
func (te *topicEdit) footnote(seed string, cites []topic.Citation, date string) (string, []topic.Element) {
	if len(cites) == 0 {
		return "", nil
	}
	label := topic.UniqueFootnoteLabel("footnote:redistill:"+seed, func(l string) bool { return te.labels[l] })
	te.labels[label] = true
	def := topic.Definition{Label: label, Date: date, Sources: cites}
	return label, []topic.Element{{Kind: topic.KindFootnote, Raw: topic.FormatDefinition(def), Label: label, Def: &def}}
}

// add puts a new block under heading (created at the end when the file
// has none), its footnote right after it. A new file starts with title.
func (te *topicEdit) add(heading, id, text string, cites []topic.Citation, date, title string) {
	text = topic.BlockSafe(text)
	if text == "" {
		return
	}
	label, notes := te.footnote(id, cites, date)
	block := topic.Element{Kind: topic.KindBlock, BlockID: id, Raw: text + marker(label) + " ^" + id}
	if label != "" {
		block.Refs = []topic.Ref{{Label: label}}
	}
	if len(te.els) == 0 {
		te.els = append(te.els, topic.Element{Kind: topic.KindHeading, Level: 1, Heading: title, Raw: "# " + topic.BlockSafe(title)})
	}
	at := te.sectionEnd(heading)
	if at < 0 {
		te.els = append(te.els, topic.Element{Kind: topic.KindHeading, Level: 2, Heading: heading, Raw: "## " + heading})
		at = len(te.els)
	}
	ins := append([]topic.Element{block}, notes...)
	te.els = append(te.els[:at], append(ins, te.els[at:]...)...)
	te.changed = true
}

// sectionEnd is where a block under heading goes: before the next heading
// of the same or a higher level, or the file's end; -1 when the file has
// no such heading. "" is the part before the first sub-heading.
func (te *topicEdit) sectionEnd(heading string) int {
	start, level := -1, 0
	for i, el := range te.els {
		if el.Kind != topic.KindHeading {
			continue
		}
		if start >= 0 && el.Level <= level {
			return i
		}
		if heading == "" && el.Level == 1 && start < 0 {
			start, level = i, 1
			continue
		}
		if heading == "" && start < 0 {
			return i
		}
		if start < 0 && el.Level > 1 && el.Heading == heading {
			start, level = i, el.Level
		}
	}
	if start < 0 && heading != "" {
		return -1
	}
	return len(te.els)
}

// amend adds citations to a block and, when text is set, gives it that
// text; its id and its footnotes stay.
func (te *topicEdit) amend(id, text string, cites []topic.Citation, date string) {
	for i, el := range te.els {
		if el.Kind != topic.KindBlock || el.BlockID != id {
			continue
		}
		body := topic.BlockText(el)
		markers := strings.Join(markerRE.FindAllString(body, -1), "")
		if text != "" {
			body = topic.BlockSafe(text) + markers
		}
		label, notes := te.footnote(id+":"+strings.Join(citeRefs(cites), ","), cites, date)
		if label == "" && text == "" {
			return
		}
		el.Raw = body + marker(label) + " ^" + id
		if label != "" {
			el.Refs = append(append([]topic.Ref(nil), el.Refs...), topic.Ref{Label: label})
		}
		te.els[i] = el
		// In place: copying the file's tail once per amend was quadratic
		// in a long forced write.
		te.els = slices.Insert(te.els, i+1, notes...)
		te.changed = true
		return
	}
}

func citeRefs(cs []topic.Citation) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.SourceID
	}
	return out
}

func marker(label string) string {
	if label == "" {
		return ""
	}
	return "[^" + label + "]"
}

// render is the file's new bytes; nil (delete the file) when no block is
// left in a file that only removed blocks touched.
func (te *topicEdit) render() []byte {
	if !te.changed {
		return te.before
	}
	used := map[string]bool{}
	blocks := 0
	for _, el := range te.els {
		if el.Kind == topic.KindBlock {
			blocks++
		}
		for _, ref := range el.Refs {
			used[ref.Label] = true
		}
	}
	var out []topic.Element
	other := false
	for _, el := range te.els {
		if el.Kind == topic.KindFootnote && te.dropped[el.Label] && !used[el.Label] {
			continue
		}
		if el.Kind != topic.KindHeading {
			other = true
		}
		out = append(out, el)
	}
	if blocks == 0 && !other {
		return nil
	}
	return (&topic.File{Elements: out}).Render()
}
