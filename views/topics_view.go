package views

import (
	"fmt"
	"strings"
)

// The topics pane drawn: the tree, the block list and the selected block
// with its footnotes and links.

// View implements Component.
func (p *Topics) View() string {
	st := p.c.Styles
	tw, rw := p.layout()
	switch {
	case tw > 0 && rw > 0:
		return Fit(JoinColumns(p.treeView(tw, p.h), tw, st.Faint.Render(" │ "), p.rightView(rw, p.h), rw, p.h), p.w, p.h)
	case tw > 0:
		return p.treeView(p.w, p.h)
	default:
		return p.rightView(p.w, p.h)
	}
}

func (p *Topics) marker(focused bool) string {
	if focused {
		return "› "
	}
	return "• "
}

func (p *Topics) title(name string, focused bool) string {
	if focused {
		return p.c.Styles.Header.Render(name)
	}
	return p.c.Styles.Title.Render(name)
}

func (p *Topics) treeView(w, h int) string {
	st := p.c.Styles
	lines := []string{p.title("Topics", p.focus == focusTree)}
	switch {
	case p.err != nil:
		lines = append(lines, Wrap(st.Error.Render("could not load: "+Visible(p.err.Error())), w)...)
	case !p.loaded:
		lines = append(lines, st.Faint.Render("loading…"))
	case len(p.tree) == 0:
		lines = append(lines, Wrap(st.Faint.Render("No topic files yet."), w)...)
	default:
		curRow := p.files[p.cur]
		p.treeOff = scrollTo(p.treeOff, curRow, h-1, len(p.tree))
		for i := p.treeOff; i < len(p.tree) && len(lines) < h; i++ {
			row := p.tree[i]
			indent := strings.Repeat("  ", row.depth)
			if row.topic < 0 {
				lines = append(lines, Truncate("  "+indent+st.Faint.Render(row.name), w))
				continue
			}
			t := p.topics[row.topic]
			count := fmt.Sprintf(" %d", t.Blocks)
			if t.Pending > 0 {
				count += st.Pending.Render(fmt.Sprintf(" (%d pending)", t.Pending))
			}
			text := indent + Visible(row.name) + count
			if i == curRow {
				line := p.marker(p.focus == focusTree) + text
				if p.focus == focusTree {
					line = cursorRow(st, line, w)
				}
				lines = append(lines, line)
			} else {
				lines = append(lines, "  "+text)
			}
		}
	}
	return Fit(strings.Join(lines, "\n"), w, h)
}

func (p *Topics) rightView(w, h int) string {
	st := p.c.Styles
	head := p.title("Blocks", p.focus == focusBlocks)
	if p.path != "" {
		head += st.Faint.Render("  " + Visible(p.path))
	}
	lines := []string{head}
	switch {
	case p.path == "":
		return Fit(head, w, h)
	case p.topicErr != nil:
		lines = append(lines, Wrap(st.Error.Render("could not load: "+Visible(p.topicErr.Error())), w)...)
		return Fit(strings.Join(lines, "\n"), w, h)
	case !p.topicLoaded:
		lines = append(lines, st.Faint.Render("loading…"))
		return Fit(strings.Join(lines, "\n"), w, h)
	case len(p.topic.Blocks) == 0:
		lines = append(lines, st.Faint.Render("This file has no blocks."))
		return Fit(strings.Join(lines, "\n"), w, h)
	}
	bh := min(p.blockListHeight(), h)
	p.blockOff = scrollTo(p.blockOff, p.block, bh-1, len(p.topic.Blocks))
	for i := p.blockOff; i < len(p.topic.Blocks) && len(lines) < bh; i++ {
		b := p.topic.Blocks[i]
		badge := st.Trusted.Render("trusted")
		if b.Trust != "trusted" {
			badge = st.Pending.Render("pending")
		}
		text := fmt.Sprintf("^%s %s %s", Visible(b.Ref), badge, OneLine(blockText(b, false)))
		if i == p.block {
			line := p.marker(p.focus == focusBlocks) + text
			if p.focus == focusBlocks {
				line = cursorRow(st, line, w)
			}
			lines = append(lines, Truncate(line, w))
		} else {
			lines = append(lines, Truncate("  "+text, w))
		}
	}
	block := Fit(strings.Join(lines, "\n"), w, bh)
	if h-bh <= 0 {
		return Fit(block, w, h)
	}
	return Fit(block+"\n"+p.detailView(w, h-bh), w, h)
}

func (p *Topics) detailView(w, h int) string {
	st := p.c.Styles
	b, _ := p.Block()
	trust := st.Trusted.Render("trusted")
	if b.Trust != "trusted" {
		trust = st.Pending.Render("pending: a cited source is pending or unresolved")
	}
	head := st.Faint.Render(strings.Repeat("─", max(w, 0)))
	meta := fmt.Sprintf("^%s · %s", Visible(b.Ref), trust)
	if b.Line > 0 {
		meta += st.Faint.Render(fmt.Sprintf(" · line %d", b.Line))
	}
	top := []string{head, meta}

	var notes []string
	rows := p.noteRows()
	cursorAt := -1
	if len(rows) > 0 {
		notes = append(notes, p.title("Footnotes and links", p.focus == focusNotes))
	}
	for i, r := range rows {
		if !r.selectable() {
			notes = append(notes, st.Faint.Render(fmt.Sprintf("[%d] %s · %s", r.num, Visible(r.time), Visible(r.label))))
			continue
		}
		var text string
		if r.link != nil {
			text = "→ " + Visible(r.link.text) + st.Faint.Render("  "+Visible(r.link.target))
		} else {
			text = Visible(r.src.Ref) + st.Faint.Render("  "+Visible(r.src.Path+"#"+r.src.Anchor))
		}
		if i == p.note && p.focus == focusNotes {
			cursorAt = len(notes)
			notes = append(notes, cursorRow(st, "› "+text, w))
		} else {
			notes = append(notes, "  "+text)
		}
	}

	body, ok := p.md.get(mdKey{text: blockText(b, true), width: w})
	if !ok {
		body = strings.Join(Wrap(Visible(blockText(b, false)), w), "\n")
	}
	bodyLines := strings.Split(body, "\n")

	room := h - len(top)
	if room <= 0 {
		return Fit(strings.Join(top, "\n"), w, h)
	}
	// Footnotes get the room they need first (they are what enter acts on),
	// but leave the rendered block at least a few lines.
	noteRoom := min(len(notes), max(room-min(len(bodyLines), 3), min(room, 2)))
	if len(notes) > 0 && noteRoom < len(notes) {
		keep := max(noteRoom-1, 0) // title line stays
		p.noteOff = scrollTo(p.noteOff, max(cursorAt-1, 0), keep, len(notes)-1)
		notes = append([]string{notes[0]}, notes[1+p.noteOff:min(1+p.noteOff+keep, len(notes))]...)
	}
	bodyRoom := room - len(notes)
	if len(bodyLines) > bodyRoom {
		bodyLines = bodyLines[:max(bodyRoom, 0)]
		if bodyRoom > 0 {
			bodyLines[bodyRoom-1] = st.Faint.Render("…")
		}
	}
	out := append(append(top, bodyLines...), notes...)
	return Fit(strings.Join(out, "\n"), w, h)
}
