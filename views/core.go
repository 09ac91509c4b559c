package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Core is pane 3: the token budget gauge and the blocks of topics/core.md
// in file order, each included, excluded (overflow) or pending with its
// token cost; a block can be read in full and moved up or down.
type Core struct {
	c    *Common
	w, h int

	view   result.CoreView
	loaded bool
	err    error

	cur, off int
	open     bool // the selected block's full text fills the pane
	textOff  int

	moved  string            // a block just moved: the cursor follows it
	before map[string]string // block states before the move
	change string            // what the last move changed in the render

	explain *result.CoreExplanation // why the selected block is in or out, once asked
	src     int                     // the selected citation of the open block
	md      *mdCache                // glamour renders of open blocks
}

// coreTopic is the topic file the core pane shows.
const coreTopic = "topics/core.md"

// NewCore returns the core pane.
func NewCore(c *Common) *Core { return &Core{c: c, md: newMDCache()} }

// Title implements Component.
func (p *Core) Title() string { return "Core" }

// Init implements Component.
func (p *Core) Init() tea.Cmd { return p.Refresh() }

// Refresh implements Component.
func (p *Core) Refresh() tea.Cmd { return Send(LoadCore{}) }

// Capturing implements Component.
func (p *Core) Capturing() bool { return false }

// SetSize implements Component.
func (p *Core) SetSize(w, h int) { p.w, p.h = w, h }

// Current returns the block under the cursor.
func (p *Core) Current() (result.CoreBlock, bool) {
	if p.cur >= len(p.view.Blocks) {
		return result.CoreBlock{}, false
	}
	return p.view.Blocks[p.cur], true
}

// Opened reports whether a block's full text is shown.
func (p *Core) Opened() bool { return p.open }

// ShortHelp implements help.KeyMap.
func (p *Core) ShortHelp() []key.Binding {
	k := p.c.Keys.Core
	if p.open {
		return append([]key.Binding{k.Close, k.Source}, curateHelp(k.Curate)...)
	}
	return append([]key.Binding{k.Open, k.Explain, k.MoveUp, k.MoveDown, k.MoveTop, k.Pin}, curateHelp(k.Curate)...)
}

// FullHelp implements help.KeyMap.
func (p *Core) FullHelp() [][]key.Binding {
	k := p.c.Keys.Core
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Open, k.Close, k.Explain, k.Source}, {k.MoveUp, k.MoveDown, k.MoveTop, k.Pin}, curateHelp(k.Curate)}
}

// Update implements Component.
func (p *Core) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case CoreLoaded:
		p.loaded, p.err = true, msg.Err
		if msg.Err == nil {
			p.setView(msg.Core)
		}
	case CoreMoved:
		if msg.Err == nil {
			p.moved = msg.ID
		} else {
			p.before = nil
		}
	case ExplainLoaded:
		if b, ok := p.Current(); ok && b.ID == msg.ID && msg.Err == nil {
			x := msg.Explanation
			p.explain = &x
		}
	case CoreReordered:
		p.explain = nil
		if msg.Err == nil {
			p.moved = msg.Request.ID
		}
	case mdRendered:
		p.md.store(msg)
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Core) setView(v result.CoreView) {
	var keep string
	if b, ok := p.Current(); ok {
		keep = b.ID
	}
	if p.moved != "" {
		keep = p.moved
	}
	p.view = v
	p.cur = clamp(p.cur, 0, len(v.Blocks)-1)
	for i, b := range v.Blocks {
		if b.ID == keep {
			p.cur = i
		}
	}
	if p.moved != "" && p.before != nil {
		p.change = p.describeChange()
	}
	p.moved, p.before = "", nil
}

// describeChange says which blocks changed state since the move started.
func (p *Core) describeChange() string {
	var parts []string
	for _, b := range p.view.Blocks {
		if old, ok := p.before[b.ID]; ok && old != b.State {
			parts = append(parts, fmt.Sprintf("^%s now %s", Visible(b.ID), Visible(b.State)))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("moved ^%s; no block changed state: %d / %d tokens", Visible(p.moved),
			p.view.Report.Tokens, p.view.Report.Budget)
	}
	return fmt.Sprintf("moved ^%s: %s", Visible(p.moved), strings.Join(parts, ", "))
}

func (p *Core) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Core
	if b, ok := p.Current(); ok {
		if cmd, curating := curateKey(k.Curate, msg, b.ID, coreTopic, b.Text); curating {
			return cmd
		}
	}
	if p.open {
		switch {
		case key.Matches(msg, k.Close):
			p.open = false
		case key.Matches(msg, k.Source):
			return p.openSource()
		case key.Matches(msg, k.PrevSource):
			p.src = max(p.src-1, 0)
		case key.Matches(msg, k.NextSource):
			p.src = min(p.src+1, max(len(p.citations())-1, 0))
		case key.Matches(msg, k.Up):
			p.textOff = max(p.textOff-1, 0)
		case key.Matches(msg, k.Down):
			p.textOff++
		case key.Matches(msg, k.PageUp):
			p.textOff = max(p.textOff-max(p.h-2, 1), 0)
		case key.Matches(msg, k.PageDown):
			p.textOff += max(p.h-2, 1)
		case key.Matches(msg, k.Top):
			p.textOff = 0
		}
		return nil
	}
	page := max(p.h/2, 1)
	before := p.cur
	defer func() {
		if p.cur != before {
			p.explain = nil
		}
	}()
	switch {
	case key.Matches(msg, k.Explain):
		if b, ok := p.Current(); ok {
			return Send(LoadExplain{ID: b.ID})
		}
	case key.Matches(msg, k.MoveTop):
		return p.askReorder(result.CoreMove{Top: true})
	case key.Matches(msg, k.Pin):
		if b, ok := p.Current(); ok && b.Pinned {
			return p.askReorder(result.CoreMove{Unpin: true})
		}
		return p.askReorder(result.CoreMove{Pin: true})
	case key.Matches(msg, k.Up):
		p.cur = clamp(p.cur-1, 0, len(p.view.Blocks)-1)
	case key.Matches(msg, k.Down):
		p.cur = clamp(p.cur+1, 0, len(p.view.Blocks)-1)
	case key.Matches(msg, k.PageUp):
		p.cur = clamp(p.cur-page, 0, len(p.view.Blocks)-1)
	case key.Matches(msg, k.PageDown):
		p.cur = clamp(p.cur+page, 0, len(p.view.Blocks)-1)
	case key.Matches(msg, k.Top):
		p.cur = 0
	case key.Matches(msg, k.Bottom):
		p.cur = max(len(p.view.Blocks)-1, 0)
	case key.Matches(msg, k.Open):
		if _, ok := p.Current(); ok {
			p.open, p.textOff, p.src = true, 0, 0
			return p.renderCmd()
		}
	case key.Matches(msg, k.MoveUp):
		return p.askMove(-1)
	case key.Matches(msg, k.MoveDown):
		return p.askMove(1)
	}
	return nil
}

func (p *Core) askMove(delta int) tea.Cmd {
	b, ok := p.Current()
	if !ok {
		return nil
	}
	to := p.cur + delta
	if to < 0 || to >= len(p.view.Blocks) {
		where := "first"
		if delta > 0 {
			where = "last"
		}
		return Send(Notice{Text: fmt.Sprintf("^%s is already the %s block of topics/core.md", b.ID, where)})
	}
	dir, rel := "up", "above"
	if delta > 0 {
		dir, rel = "down", "below"
	}
	p.before = map[string]string{}
	for _, x := range p.view.Blocks {
		p.before[x.ID] = x.State
	}
	prompt := fmt.Sprintf("Move block ^%s %s in topics/core.md, %s ^%s? This installs a normal transaction "+
		"and re-renders core.md under the budget, which may include or exclude other blocks. "+
		"y to confirm, any other key cancels", b.ID, dir, rel, p.view.Blocks[to].ID)
	return Send(Confirm{Prompt: prompt, Action: MoveCoreBlock{ID: b.ID, Delta: delta}})
}

// View implements Component.
func (p *Core) View() string {
	st := p.c.Styles
	lines := []string{st.Title.Render("Core") + st.Faint.Render("  topics/core.md → core.md")}
	switch {
	case p.err != nil:
		lines = append(lines, Wrap(st.Error.Render("could not load: "+Visible(p.err.Error())), p.w)...)
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	case !p.loaded:
		lines = append(lines, st.Faint.Render("loading…"))
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	if p.open {
		return p.textView()
	}
	r := p.view.Report
	lines = append(lines, p.gauge(r.Tokens, r.Budget, p.w))
	counts := fmt.Sprintf("%d included · %d excluded (overflow) · %d pending",
		len(r.Included), len(r.Excluded), len(r.Pending))
	lines = append(lines, st.Faint.Render(counts))
	if p.change != "" {
		lines = append(lines, st.Accent.Render(p.change))
	}
	if len(p.view.Blocks) == 0 {
		lines = append(lines, st.Faint.Render("topics/core.md has no blocks."))
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	lines = append(lines, st.Faint.Render(fmt.Sprintf("  %3s  %-9s %6s  %s", "#", "state", "tokens", "block")))
	room := p.h - len(lines)
	if room <= 0 {
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	listH := min(len(p.view.Blocks), room)
	reserve := 3 // a few lines for the preview
	if b, ok := p.Current(); ok && p.explain != nil && p.explain.ID == b.ID {
		reserve = 2 + len(p.explainLines(*p.explain, p.h)) // the whole explanation
	}
	if room-listH < reserve && room > reserve+3 {
		listH = room - reserve
	}
	p.off = scrollTo(p.off, p.cur, listH, len(p.view.Blocks))
	for i := p.off; i < len(p.view.Blocks) && i < p.off+listH; i++ {
		b := p.view.Blocks[i]
		state := PadRight(b.State, 9)
		switch b.State {
		case "included":
			state = st.Trusted.Render(state)
		case "excluded":
			state = st.Warn.Render(state)
		default:
			state = st.Pending.Render(state)
		}
		pin := ""
		if b.Pinned {
			pin = "[pinned] "
		}
		row := fmt.Sprintf("%3d  %s %6d  ^%s  %s%s", i+1, state, b.Tokens, Visible(b.ID), pin, OneLine(coreText(b)))
		if i == p.cur {
			lines = append(lines, cursorRow(st, "› "+row, p.w))
		} else {
			lines = append(lines, Truncate("  "+row, p.w))
		}
	}
	if b, ok := p.Current(); ok && p.h-len(lines) >= 2 {
		lines = append(lines, st.Faint.Render(strings.Repeat("─", p.w)))
		if p.explain != nil && p.explain.ID == b.ID {
			lines = append(lines, p.explainLines(*p.explain, p.h-len(lines))...)
		} else {
			lines = append(lines, p.textLines(b, p.h-len(lines))...)
		}
	}
	return Fit(strings.Join(lines, "\n"), p.w, p.h)
}

// coreText is a block's text with its footnote references numbered in
// order of appearance ("[1]"), as the topics pane shows them.
func coreText(b result.CoreBlock) string {
	return markFootnotes(b.Text, footnoteOrder(b.Text, nil), false)
}

// textLines is a block's text wrapped to the pane, then the legend of its
// footnote numbers when both fit in room lines; the text comes first (enter
// shows the whole block with its legend).
func (p *Core) textLines(b result.CoreBlock, room int) []string {
	body := Wrap(Visible(coreText(b)), p.w)
	order := footnoteOrder(b.Text, nil)
	if len(order) == 0 {
		return body
	}
	legend := WrapParts(footnoteLegend(order), " · ", p.w)
	if len(body)+len(legend) > room {
		return body
	}
	for i, l := range legend {
		legend[i] = p.c.Styles.Faint.Render(l)
	}
	return append(body, legend...)
}

// gauge draws "[████░░░░] 1234 / 2000 tokens · 62%" in w cells.
func (p *Core) gauge(used, budget, w int) string {
	st := p.c.Styles
	pct := 0
	if budget > 0 {
		pct = used * 100 / budget
	}
	label := fmt.Sprintf(" %d / %d tokens · %d%%", used, budget, pct)
	bar := w - len(label) - 2
	if bar < 4 {
		return Truncate(strings.TrimSpace(label), w)
	}
	full := 0
	if budget > 0 {
		full = clamp(used*bar/budget, 0, bar)
	}
	return "[" + st.GaugeFull.Render(strings.Repeat("█", full)) +
		st.GaugeEmpty.Render(strings.Repeat("░", bar-full)) + "]" + label
}
