package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine"
)

// Pending is pane 1: pending sources grouped by thread, the selected frame
// verbatim, multi-select, a filter and promotion.
type Pending struct {
	c    *Common
	w, h int

	all    []engine.PendingSource
	loaded bool
	err    error

	rows   []pendingRow // visible rows: thread headers and sources
	items  []int        // indexes into rows of the source rows
	cursor int          // index into items
	offset int          // first visible row

	selected  map[string]bool // by source-id
	filter    textinput.Model
	filtering bool
}

type pendingRow struct {
	thread string
	count  int // header rows: sources of the thread that pass the filter
	src    int // source rows: index into all; -1 for headers
}

// NewPending returns the pending pane.
func NewPending(c *Common) *Pending {
	return &Pending{c: c, selected: map[string]bool{}, filter: newInput(c, "/ ", "filter by thread, speaker or text")}
}

// Title implements Component.
func (p *Pending) Title() string {
	if len(p.all) > 0 {
		return fmt.Sprintf("Pending %d", len(p.all))
	}
	return "Pending"
}

// Init implements Component.
func (p *Pending) Init() tea.Cmd { return p.Refresh() }

// Refresh implements Component.
func (p *Pending) Refresh() tea.Cmd { return Send(LoadPending{}) }

// Capturing implements Component.
func (p *Pending) Capturing() bool { return p.filtering }

// SetSize implements Component.
func (p *Pending) SetSize(w, h int) {
	p.w, p.h = w, h
	p.filter.Width = max(w-4, 1)
}

// Selected returns the selected source-ids in list order.
func (p *Pending) Selected() []string {
	var refs []string
	for _, s := range p.all {
		if p.selected[s.Ref] {
			refs = append(refs, s.Ref)
		}
	}
	return refs
}

// Current returns the source under the cursor.
func (p *Pending) Current() (engine.PendingSource, bool) {
	if len(p.items) == 0 {
		return engine.PendingSource{}, false
	}
	return p.all[p.rows[p.items[p.cursor]].src], true
}

// ShortHelp implements help.KeyMap.
func (p *Pending) ShortHelp() []key.Binding {
	k := p.c.Keys
	if p.filtering {
		return []key.Binding{k.Filter.Apply, k.Filter.Clear}
	}
	return []key.Binding{k.Pending.Select, k.Pending.Filter, k.Pending.Promote}
}

// FullHelp implements help.KeyMap.
func (p *Pending) FullHelp() [][]key.Binding {
	k := p.c.Keys.Pending
	if p.filtering {
		return [][]key.Binding{{p.c.Keys.Filter.Apply, p.c.Keys.Filter.Clear, p.c.Keys.Filter.ForceQuit}}
	}
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.Select, k.SelectThread, k.ClearSelection, k.Filter, k.Promote},
	}
}

// Update implements Component.
func (p *Pending) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case PendingLoaded:
		p.loaded = true
		p.err = msg.Err
		if msg.Err == nil {
			p.setSources(msg.Sources)
		}
	case Promoted:
		if msg.Err == nil {
			for _, r := range msg.Refs {
				delete(p.selected, r)
			}
		}
	case tea.KeyMsg:
		if p.filtering {
			return p, p.updateFilter(msg)
		}
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Pending) updateFilter(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Filter
	switch {
	case key.Matches(msg, k.Apply):
		p.filtering = false
		p.filter.Blur()
		return nil
	case key.Matches(msg, k.Clear):
		p.filtering = false
		p.filter.Blur()
		p.filter.SetValue("")
		p.rebuild()
		return nil
	}
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	p.rebuild()
	return cmd
}

func (p *Pending) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Pending
	page := max(p.listHeight()-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-page)
	case key.Matches(msg, k.PageDown):
		p.move(page)
	case key.Matches(msg, k.Top):
		p.move(-len(p.items))
	case key.Matches(msg, k.Bottom):
		p.move(len(p.items))
	case key.Matches(msg, k.Select):
		if s, ok := p.Current(); ok {
			p.toggle(s.Ref)
			p.move(1)
		}
	case key.Matches(msg, k.SelectThread):
		p.toggleThread()
	case key.Matches(msg, k.ClearSelection):
		clear(p.selected)
	case key.Matches(msg, k.Filter):
		p.filtering = true
		return p.filter.Focus()
	case key.Matches(msg, k.Promote):
		return p.promote()
	}
	return nil
}

func (p *Pending) toggle(ref string) {
	if p.selected[ref] {
		delete(p.selected, ref)
	} else {
		p.selected[ref] = true
	}
}

// toggleThread selects every visible source of the cursor's thread, or
// clears them when all are selected already.
func (p *Pending) toggleThread() {
	cur, ok := p.Current()
	if !ok {
		return
	}
	thread := threadOf(cur)
	var refs []string
	all := true
	for _, i := range p.items {
		s := p.all[p.rows[i].src]
		if threadOf(s) == thread {
			refs = append(refs, s.Ref)
			all = all && p.selected[s.Ref]
		}
	}
	for _, r := range refs {
		if all {
			delete(p.selected, r)
		} else {
			p.selected[r] = true
		}
	}
}

// promote asks for confirmation of the selection, or of the cursor row
// when nothing is selected.
func (p *Pending) promote() tea.Cmd {
	refs := p.Selected()
	if len(refs) == 0 {
		cur, ok := p.Current()
		if !ok {
			return nil
		}
		refs = []string{cur.Ref}
	}
	summary := p.summary(refs)
	prompt := fmt.Sprintf("Promote %s? They become trusted, searchable and are distilled into topics. "+
		"y to confirm, any other key cancels", summary)
	if len(refs) == 1 {
		prompt = fmt.Sprintf("Promote %s? It becomes trusted, searchable and is distilled into topics. "+
			"y to confirm, any other key cancels", summary)
	}
	return Send(Confirm{Prompt: prompt, Action: Promote{Refs: refs, Summary: summary}})
}

// summary says which sources in words: "2 sources from telegram/group-42",
// or "3 sources from 2 threads (a/b: 2, c/d: 1)".
func (p *Pending) summary(refs []string) string {
	byRef := map[string]engine.PendingSource{}
	for _, s := range p.all {
		byRef[s.Ref] = s
	}
	counts := map[string]int{}
	var threads []string
	for _, r := range refs {
		t := threadOf(byRef[r])
		if t == "" {
			t = threadOfRef(r)
		}
		if counts[t] == 0 {
			threads = append(threads, t)
		}
		counts[t]++
	}
	if len(threads) == 1 {
		return fmt.Sprintf("%s from %s", plural(len(refs), "source"), threads[0])
	}
	parts := make([]string, len(threads))
	for i, t := range threads {
		parts[i] = fmt.Sprintf("%s: %d", t, counts[t])
	}
	return fmt.Sprintf("%s from %d threads (%s)", plural(len(refs), "source"), len(threads), strings.Join(parts, ", "))
}

func (p *Pending) setSources(src []engine.PendingSource) {
	var curRef string
	if s, ok := p.Current(); ok {
		curRef = s.Ref
	}
	p.all = src
	exists := map[string]bool{}
	for _, s := range src {
		exists[s.Ref] = true
	}
	for r := range p.selected {
		if !exists[r] {
			delete(p.selected, r)
		}
	}
	p.rebuild()
	for i, row := range p.items {
		if p.all[p.rows[row].src].Ref == curRef {
			p.cursor = i
		}
	}
}

// rebuild groups the sources that pass the filter by thread, threads in
// the order of their oldest pending source.
func (p *Pending) rebuild() {
	q := strings.ToLower(strings.TrimSpace(p.filter.Value()))
	var order []string
	groups := map[string][]int{}
	for i, s := range p.all {
		if q != "" && !pendingMatches(s, q) {
			continue
		}
		t := threadOf(s)
		if _, ok := groups[t]; !ok {
			order = append(order, t)
		}
		groups[t] = append(groups[t], i)
	}
	prev := p.cursor
	p.rows, p.items = p.rows[:0], p.items[:0]
	for _, t := range order {
		p.rows = append(p.rows, pendingRow{thread: t, count: len(groups[t]), src: -1})
		for _, i := range groups[t] {
			p.items = append(p.items, len(p.rows))
			p.rows = append(p.rows, pendingRow{thread: t, src: i})
		}
	}
	p.cursor = clamp(prev, 0, len(p.items)-1)
}

func pendingMatches(s engine.PendingSource, q string) bool {
	for _, f := range []string{threadOf(s), s.Ref, s.SpeakerLabel, s.SpeakerID, s.Content, s.Text} {
		if strings.Contains(strings.ToLower(f), q) {
			return true
		}
	}
	return false
}

func threadOf(s engine.PendingSource) string {
	if s.Thread != "" {
		return s.Thread
	}
	return threadOfRef(s.Ref)
}

// threadOfRef is "<provider>/<thread>" of a source-id
// "<provider>/<thread>/<message-id>".
func threadOfRef(ref string) string {
	if i := strings.LastIndexByte(ref, '/'); i > 0 {
		return ref[:i]
	}
	return ref
}

func (p *Pending) move(delta int) {
	p.cursor = clamp(p.cursor+delta, 0, len(p.items)-1)
}

// wide reports whether list and detail sit side by side.
func (p *Pending) wide() bool { return p.w >= 100 }

func (p *Pending) listHeight() int {
	body := max(p.h-p.headerHeight(), 0)
	if p.wide() {
		return body
	}
	return max(body/2, min(body, 3))
}

func (p *Pending) headerHeight() int {
	if p.filtering || p.filter.Value() != "" {
		return 2
	}
	return 1
}

// View implements Component.
func (p *Pending) View() string {
	st := p.c.Styles
	var head []string
	title := st.Title.Render("Pending sources")
	switch {
	case p.err != nil:
		title += st.Error.Render("  could not load: " + p.err.Error())
	case !p.loaded:
		title += st.Faint.Render("  loading…")
	default:
		threads := map[string]bool{}
		for _, s := range p.all {
			threads[threadOf(s)] = true
		}
		info := fmt.Sprintf("  %s in %s", plural(len(p.all), "source"), plural(len(threads), "thread"))
		if n := len(p.selected); n > 0 {
			info += fmt.Sprintf(" · %d selected", n)
		}
		title += st.Faint.Render(info)
	}
	head = append(head, title)
	if p.headerHeight() == 2 {
		if p.filtering {
			head = append(head, p.filter.View())
		} else {
			head = append(head, st.Faint.Render("filter: "+p.filter.Value()+fmt.Sprintf("  (%d shown, esc on / clears)", len(p.items))))
		}
	}
	body := max(p.h-len(head), 0)
	var main string
	if p.wide() {
		lw := p.w * 45 / 100
		rw := p.w - lw - 3
		main = JoinColumns(p.listView(lw, body), lw, st.Faint.Render(" │ "), p.detailView(rw, body, false), rw, body)
	} else {
		lh := p.listHeight()
		main = p.listView(p.w, lh) + "\n" + p.detailView(p.w, body-lh, true)
	}
	return Fit(strings.Join(head, "\n")+"\n"+main, p.w, p.h)
}

func (p *Pending) listView(w, h int) string {
	st := p.c.Styles
	if h <= 0 {
		return ""
	}
	if len(p.rows) == 0 {
		msg := "No pending sources. Group-chat messages from unpaired senders wait here for review."
		if p.filter.Value() != "" {
			msg = "No pending source matches the filter."
		}
		if !p.loaded {
			msg = ""
		}
		return Fit(strings.Join(Wrap(st.Faint.Render(msg), w), "\n"), w, h)
	}
	curRow := p.items[p.cursor]
	p.offset = scrollTo(p.offset, curRow, h, len(p.rows))
	if curRow > 0 && p.rows[curRow-1].src < 0 && curRow-1 < p.offset {
		p.offset = curRow - 1
	}
	var out []string
	for i := p.offset; i < len(p.rows) && len(out) < h; i++ {
		row := p.rows[i]
		if row.src < 0 {
			out = append(out, Truncate(st.Header.Render(fmt.Sprintf("%s (%d)", row.thread, row.count)), w))
			continue
		}
		s := p.all[row.src]
		box := "[ ]"
		if p.selected[s.Ref] {
			box = "[x]"
		}
		label := s.SpeakerLabel
		if label == "" {
			label = "?"
		}
		line := fmt.Sprintf("%s %s %s: %s", box, clockOf(s.Time), OneLine(label), OneLine(s.Content))
		switch {
		case i == curRow:
			out = append(out, cursorRow(st, "› "+line, w))
		case p.selected[s.Ref]:
			out = append(out, st.Marked.Render(Truncate("  "+line, w)))
		default:
			out = append(out, Truncate("  "+line, w))
		}
	}
	return Fit(strings.Join(out, "\n"), w, h)
}

// clockOf shows the time of day of an RFC 3339 time, or the date when it
// cannot.
func clockOf(t string) string {
	s := ShortTime(t)
	if len(s) == len("2006-01-02 15:04") {
		return s[5:]
	}
	return s
}

// detailView is the selected source. stacked says it sits under the list,
// where a rule separates the two; beside the list the column divider does.
func (p *Pending) detailView(w, h int, stacked bool) string {
	st := p.c.Styles
	if h <= 0 {
		return ""
	}
	s, ok := p.Current()
	if !ok {
		return Fit("", w, h)
	}
	field := func(name, value string) string {
		return st.Faint.Render(PadRight(name, 10)) + value
	}
	speaker := s.SpeakerLabel
	if speaker == "" {
		speaker = "(none)"
	}
	var lines []string
	if stacked {
		lines = append(lines, st.Faint.Render(strings.Repeat("─", max(w, 0))))
	}
	lines = append(lines,
		field("source-id", Visible(s.Ref)),
		field("time", s.Time),
		field("speaker", Visible(speaker)),
		field("trust", st.Pending.Render("✗ untrusted · pending review (unpaired sender)")),
		field("archive", Visible(s.Path+"#"+s.Anchor)),
		st.Faint.Render("record, verbatim:"),
	)
	text := s.Text
	if text == "" {
		text = s.Content
	}
	lines = append(lines, Wrap(Visible(text), w)...)
	return Fit(strings.Join(lines, "\n"), w, h)
}
