package views

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// The open block and the explanation of the core pane: a block read in
// full is rendered with glamour and lists its citations, each one a
// drill-down to the source record; `e` shows why a block is in core.md or
// left out; `t` and `P` reorder in one step.

// citations flattens the open block's footnotes into its cited sources.
func (p *Core) citations() []result.CitationView {
	b, ok := p.Current()
	if !ok {
		return nil
	}
	var out []result.CitationView
	for _, f := range b.Footnotes {
		out = append(out, f.Sources...)
	}
	return out
}

// openSource drills down to the selected citation's source record.
func (p *Core) openSource() tea.Cmd {
	cs := p.citations()
	if len(cs) == 0 {
		return Send(Notice{Text: "this block cites no source"})
	}
	c := cs[clamp(p.src, 0, len(cs)-1)]
	return Send(OpenArchive{Path: c.Path, Anchor: c.Anchor})
}

// renderCmd asks for the glamour render of the open block at this width.
func (p *Core) renderCmd() tea.Cmd {
	b, ok := p.Current()
	if !ok || !p.open {
		return nil
	}
	return p.md.request(p.c.Markdown, mdKey{text: markFootnotes(b.Text, footnoteOrder(b.Text, nil), true), width: p.w})
}

func (p *Core) textView() string {
	st := p.c.Styles
	b, _ := p.Current()
	pin := ""
	if b.Pinned {
		pin = " · pinned"
	}
	head := []string{
		st.Title.Render("^"+Visible(b.ID)) + st.Faint.Render(fmt.Sprintf(" · %s%s · %d tokens · block %d of %d",
			b.State, pin, b.Tokens, p.cur+1, len(p.view.Blocks))),
		st.Faint.Render(strings.Repeat("─", p.w)),
	}
	text := markFootnotes(b.Text, footnoteOrder(b.Text, nil), true)
	var body []string
	if out, ok := p.md.get(mdKey{text: text, width: p.w}); ok {
		body = strings.Split(out, "\n")
	} else {
		body = Wrap(Visible(coreText(b)), p.w) // until the render arrives
	}
	if order := footnoteOrder(b.Text, nil); len(order) > 0 {
		for _, l := range WrapParts(footnoteLegend(order), " · ", p.w) {
			body = append(body, st.Faint.Render(l))
		}
	}
	if cs := p.citations(); len(cs) > 0 {
		body = append(body, "", st.Header.Render("Sources")+st.Faint.Render("  ←/→ choose · s open the record"))
		for i, c := range cs {
			row := fmt.Sprintf("%s  %s#%s", Visible(c.Ref), Visible(c.Path), Visible(c.Anchor))
			if i == clamp(p.src, 0, len(cs)-1) {
				body = append(body, cursorRow(st, "› "+row, p.w))
			} else {
				body = append(body, Truncate("  "+row, p.w))
			}
		}
	}
	room := max(p.h-len(head), 0)
	p.textOff = clamp(p.textOff, 0, max(len(body)-room, 0))
	body = body[p.textOff:min(len(body), p.textOff+room)]
	return Fit(strings.Join(append(head, body...), "\n"), p.w, p.h)
}

// explainLines is the explanation of the selected block, for the space
// under the list.
func (p *Core) explainLines(x result.CoreExplanation, room int) []string {
	st := p.c.Styles
	state := x.State
	if x.Pinned {
		state += ", pinned"
	}
	var out []string
	out = append(out, st.Header.Render("Why ^"+Visible(x.ID)+" is "+state))
	facts := []string{fmt.Sprintf("position %d of %d", x.Position, x.Blocks), fmt.Sprintf("%d tokens alone", x.Tokens)}
	if x.RunningTotal > 0 {
		facts = append(facts, fmt.Sprintf("core.md up to it: %d / %d tokens", x.RunningTotal, x.Budget))
	}
	facts = append(facts, "trust "+x.Trust)
	out = append(out, WrapParts(facts, " · ", p.w)...)
	out = append(out, Wrap(Visible(x.Reason), p.w)...)
	for _, c := range x.Sources {
		out = append(out, Truncate(st.Faint.Render("source "+Visible(c.Ref)), p.w))
	}
	if len(out) > room {
		out = out[:max(room, 0)]
	}
	return out
}

// askReorder confirms a one-step reorder of the selected block.
func (p *Core) askReorder(m result.CoreMove) tea.Cmd {
	b, ok := p.Current()
	if !ok {
		return nil
	}
	where := "to the top of topics/core.md (after any pinned blocks)"
	switch {
	case m.Pin:
		where = "into the pinned section at the top of topics/core.md, rendered before every other block"
	case m.Unpin:
		where = "out of the pinned section"
	}
	p.before = map[string]string{}
	for _, x := range p.view.Blocks {
		p.before[x.ID] = x.State
	}
	return Send(Confirm{Prompt: fmt.Sprintf("Move ^%s %s? This installs a normal transaction and re-renders core.md under the budget, "+
		"which may include or exclude other blocks. y to confirm, any other key cancels", b.ID, where),
		Action: ReorderCore{ID: b.ID, Move: m}})
}
