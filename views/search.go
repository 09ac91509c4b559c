package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// The search inputs, in tab order.
const (
	fieldQuery = iota
	fieldSpeaker
	fieldPath
	fieldSince
	fieldUntil
	numFields
)

var fieldLabels = [numFields]string{"query", "speaker", "path", "since", "until"}

// searchLimit is how many results the pane asks for.
const searchLimit = 50

// Search is pane 5: a query box with speaker, path and date filters, and the
// results with kind, score and trust; enter drills to the block or source.
type Search struct {
	c    *Common
	w, h int

	inputs [numFields]textinput.Model
	focus  int // the focused input, -1 for none
	sort   string

	query   result.SearchQuery // the last query sent
	ran     bool
	running bool
	results []result.SearchResult
	err     error
	cur     int
	off     int

	rc recallMode // R: what an agent is given for the prompt (search_recall.go)
}

// NewSearch returns the search pane.
func NewSearch(c *Common) *Search {
	s := &Search{c: c, focus: -1, sort: "score"}
	placeholders := [numFields]string{"words to find", "id, name or label", "topics/… or sources/…",
		"YYYY-MM-DD", "YYYY-MM-DD"}
	for i := range s.inputs {
		s.inputs[i] = newInput(c, "", placeholders[i])
	}
	s.setPrompts()
	return s
}

// Title implements Component.
func (p *Search) Title() string { return "Search" }

// Init implements Component.
func (p *Search) Init() tea.Cmd { return nil }

// Refresh implements Component: the last search runs again.
func (p *Search) Refresh() tea.Cmd {
	if p.rc.on {
		if !p.rc.ran {
			return nil
		}
		return Send(RunRecall{Prompt: p.rc.prompt})
	}
	if !p.ran {
		return nil
	}
	return Send(RunSearch{Query: p.query})
}

// Capturing implements Component.
func (p *Search) Capturing() bool { return p.focus >= 0 }

// SetSize implements Component.
func (p *Search) SetSize(w, h int) {
	p.w, p.h = w, h
	full, half := p.inputWidths()
	for i := range p.inputs {
		if i == fieldQuery {
			p.inputs[i].Width = full
		} else {
			p.inputs[i].Width = half
		}
	}
}

func (p *Search) inputWidths() (full, half int) {
	// prompt is "› label  " (2 + 7 + 1 cells); two fields share a row.
	full = max(p.w-11, 1)
	half = max(p.w/2-12, 1)
	return full, half
}

// Results returns the current results.
func (p *Search) Results() []result.SearchResult { return p.results }

// Query returns the text of the query input.
func (p *Search) Query() string { return p.inputs[fieldQuery].Value() }

// ShortHelp implements help.KeyMap.
func (p *Search) ShortHelp() []key.Binding {
	if p.focus >= 0 {
		k := p.c.Keys.Input
		return []key.Binding{k.Run, k.NextField, k.Leave}
	}
	k := p.c.Keys.Search
	if p.rc.on {
		return []key.Binding{k.Edit, k.Open, k.Recall}
	}
	return []key.Binding{k.Edit, k.Open, k.Sort, k.Recall}
}

// FullHelp implements help.KeyMap.
func (p *Search) FullHelp() [][]key.Binding {
	if p.focus >= 0 {
		k := p.c.Keys.Input
		return [][]key.Binding{{k.Run, k.NextField, k.PrevField, k.Leave, k.ForceQuit}}
	}
	k := p.c.Keys.Search
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Edit, k.Open, k.Sort, k.Recall}}
}

// Update implements Component.
func (p *Search) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case RecallDone:
		p.recallDone(msg)
	case SearchDone:
		if !sameQuery(msg.Query, p.query) {
			return p, nil
		}
		p.running = false
		p.err = msg.Err
		if msg.Err == nil {
			p.results = msg.Results
			p.cur = clamp(p.cur, 0, len(p.results)-1)
		}
	case tea.KeyMsg:
		if p.focus >= 0 {
			return p, p.editKey(msg)
		}
		return p, p.browseKey(msg)
	}
	return p, nil
}

func sameQuery(a, b result.SearchQuery) bool { return a == b }

func (p *Search) editKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Input
	switch {
	case key.Matches(msg, k.Run):
		p.setFocus(-1)
		if p.rc.on {
			return p.runRecall()
		}
		return p.run()
	case p.rc.on && (key.Matches(msg, k.NextField) || key.Matches(msg, k.PrevField)):
		return nil // a prompt has no filters
	case key.Matches(msg, k.NextField):
		return p.setFocus((p.focus + 1) % numFields)
	case key.Matches(msg, k.PrevField):
		return p.setFocus((p.focus + numFields - 1) % numFields)
	case key.Matches(msg, k.Leave):
		return p.setFocus(-1)
	}
	var cmd tea.Cmd
	p.inputs[p.focus], cmd = p.inputs[p.focus].Update(msg)
	return cmd
}

func (p *Search) browseKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Search
	if key.Matches(msg, k.Recall) {
		return p.toggleRecall()
	}
	if p.rc.on {
		if cmd, ok := p.recallKey(msg); ok {
			return cmd
		}
	}
	page := max(p.resultRows()/2, 1)
	switch {
	case key.Matches(msg, k.Edit):
		return p.setFocus(fieldQuery)
	case key.Matches(msg, k.Up):
		p.cur = clamp(p.cur-1, 0, len(p.results)-1)
	case key.Matches(msg, k.Down):
		p.cur = clamp(p.cur+1, 0, len(p.results)-1)
	case key.Matches(msg, k.PageUp):
		p.cur = clamp(p.cur-page, 0, len(p.results)-1)
	case key.Matches(msg, k.PageDown):
		p.cur = clamp(p.cur+page, 0, len(p.results)-1)
	case key.Matches(msg, k.Top):
		p.cur = 0
	case key.Matches(msg, k.Bottom):
		p.cur = max(len(p.results)-1, 0)
	case key.Matches(msg, k.Sort):
		if p.sort == "score" {
			p.sort = "date"
		} else {
			p.sort = "score"
		}
		if p.ran {
			return p.run()
		}
	case key.Matches(msg, k.Open):
		if p.cur < len(p.results) {
			r := p.results[p.cur]
			if r.Kind == "source" {
				return Send(OpenArchive{Path: r.Path, Anchor: r.Anchor})
			}
			return Send(OpenBlock{Path: r.Path, ID: r.Ref})
		}
	}
	return nil
}

// setFocus moves the focus to input i (-1: leave the inputs).
func (p *Search) setFocus(i int) tea.Cmd {
	var cmd tea.Cmd
	for j := range p.inputs {
		if j == i {
			cmd = p.inputs[j].Focus()
		} else {
			p.inputs[j].Blur()
		}
	}
	p.focus = i
	p.setPrompts()
	return cmd
}

func (p *Search) setPrompts() {
	for i := range p.inputs {
		mark := "  "
		if i == p.focus {
			mark = "› "
		}
		label := fieldLabels[i]
		if i == fieldQuery && p.rc.on {
			label = "prompt"
		}
		p.inputs[i].Prompt = fmt.Sprintf("%s%-7s ", mark, label)
	}
}

func (p *Search) run() tea.Cmd {
	q := result.SearchQuery{
		Text:    strings.TrimSpace(p.inputs[fieldQuery].Value()),
		Speaker: strings.TrimSpace(p.inputs[fieldSpeaker].Value()),
		Path:    strings.TrimSpace(p.inputs[fieldPath].Value()),
		Since:   strings.TrimSpace(p.inputs[fieldSince].Value()),
		Until:   strings.TrimSpace(p.inputs[fieldUntil].Value()),
		Sort:    p.sort,
		Limit:   searchLimit,
	}
	if q.Text == "" && q.Speaker == "" && q.Path == "" && q.Since == "" && q.Until == "" {
		return Send(Notice{Text: "type a query first (/ edits it)"})
	}
	p.query, p.ran, p.running = q, true, true
	p.cur, p.off = 0, 0
	return Send(RunSearch{Query: q})
}

const searchHeader = 5 // title, three input rows, rule

func (p *Search) resultRows() int { return max((p.h-searchHeader)/2, 0) }

// View implements Component.
func (p *Search) View() string {
	if p.rc.on {
		return p.recallView()
	}
	st := p.c.Styles
	title := st.Title.Render("Search")
	switch {
	case p.running:
		title += st.StatusBusy.Render("  searching…")
	case p.err != nil:
		title += st.Error.Render("  " + Visible(p.err.Error()))
	case p.ran:
		title += st.Faint.Render(fmt.Sprintf("  %s · sorted by %s", plural(len(p.results), "result"), p.query.Sort))
	default:
		title += st.Faint.Render("  sort by " + p.sort)
	}
	half := p.w / 2
	lines := []string{
		title,
		p.inputs[fieldQuery].View(),
		PadRight(p.inputs[fieldSpeaker].View(), half) + p.inputs[fieldPath].View(),
		PadRight(p.inputs[fieldSince].View(), half) + p.inputs[fieldUntil].View(),
		st.Faint.Render(strings.Repeat("─", max(p.w, 0))),
	}
	if !p.ran {
		lines = append(lines, Wrap(st.Faint.Render("Press / to type a query; tab moves between the query "+
			"and the filters, enter searches. Dates are YYYY-MM-DD (until covers the whole day) or RFC 3339."), p.w)...)
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	if len(p.results) == 0 && !p.running && p.err == nil {
		lines = append(lines, st.Faint.Render("No results. Pending sources and pending blocks are never shown."))
	}
	rows := p.resultRows()
	p.off = scrollTo(p.off, p.cur, rows, len(p.results))
	for i := p.off; i < len(p.results) && i < p.off+rows; i++ {
		l1, l2 := p.resultLines(p.results[i])
		if i == p.cur {
			lines = append(lines, cursorRow(st, "› "+l1, p.w), Truncate("  "+l2, p.w))
		} else {
			lines = append(lines, Truncate("  "+l1, p.w), Truncate("  "+l2, p.w))
		}
	}
	return Fit(strings.Join(lines, "\n"), p.w, p.h)
}

// resultLines is a result in two lines: kind, score, trust, path#anchor and
// time; then the speaker (for sources) and the snippet.
func (p *Search) resultLines(r result.SearchResult) (string, string) {
	st := p.c.Styles
	l1 := fmt.Sprintf("%-6s %7.2f  %s  %s#%s", Visible(r.Kind), r.Score, st.Trusted.Render("trusted"),
		Visible(r.Path), Visible(r.Anchor))
	if r.Time != "" {
		l1 += st.Faint.Render("  " + ShortTime(r.Time))
	}
	var l2 string
	if r.Kind == "source" {
		trusted := r.SpeakerTrusted != nil && *r.SpeakerTrusted
		switch {
		case r.SpeakerLabel == nil || *r.SpeakerLabel == "":
			l2 = st.Faint.Render("(no speaker identity): ")
		case trusted:
			l2 = Visible(*r.SpeakerLabel) + st.Trusted.Render(" (identity verified)") + ": "
		default:
			l2 = Visible(*r.SpeakerLabel) + st.Pending.Render(" (identity unverified)") + ": "
		}
	}
	snippet := r.Snippet
	if r.Kind != "source" {
		// Block text: its footnote numbers would have no list to point to.
		snippet = stripFootnotes(snippet, !r.SnippetComplete)
	}
	snippet = OneLine(snippet)
	if !r.SnippetComplete {
		snippet += "…"
	}
	return l1, l2 + st.Faint.Render(snippet)
}
