package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The search pane's recall mode shows what an agent is given for a
// prompt: exactly what the prompt hook injects and MCP memory_recall
// returns (engine/recall), item by item with its tokens, so the owner sees
// what the agent sees and can open any item to correct it.

// Recalled is a recall as the pane shows it.
type Recalled struct {
	Text   string // the fenced context, as the agent gets it
	Items  []RecalledItem
	Tokens int
	Budget int
}

// RecalledItem is one line of a recall.
type RecalledItem struct {
	Kind   string // "core", "project", "topic" or "source"
	Ref    string
	Path   string
	Anchor string
	Date   string
	Tokens int
	Text   string // the line inside the fence
}

// RunRecall asks for the recall of a prompt.
type RunRecall struct{ Prompt string }

// RecallDone answers RunRecall.
type RecallDone struct {
	Prompt string
	Result Recalled
	Err    error
}

// recallMode is the pane's state in recall mode.
type recallMode struct {
	on      bool
	prompt  string // the last prompt sent
	ran     bool
	running bool
	res     Recalled
	err     error
	cur     int
	off     int
}

// toggleRecall switches between search and recall.
func (p *Search) toggleRecall() tea.Cmd {
	p.rc.on = !p.rc.on
	p.setPrompts()
	mode := "search"
	if p.rc.on {
		mode = "recall: what an agent is given for a prompt"
	}
	return Send(Notice{Text: mode})
}

// runRecall sends the query input as a prompt.
func (p *Search) runRecall() tea.Cmd {
	prompt := strings.TrimSpace(p.inputs[fieldQuery].Value())
	if prompt == "" {
		return Send(Notice{Text: "type a prompt first (/ edits it)"})
	}
	p.rc.prompt, p.rc.ran, p.rc.running = prompt, true, true
	p.rc.cur, p.rc.off = 0, 0
	return Send(RunRecall{Prompt: prompt})
}

func (p *Search) recallDone(msg RecallDone) {
	if msg.Prompt != p.rc.prompt {
		return
	}
	p.rc.running, p.rc.err = false, msg.Err
	if msg.Err == nil {
		p.rc.res = msg.Result
		p.rc.cur = clamp(p.rc.cur, 0, len(p.rc.res.Items)-1)
	}
}

// recallKey handles a browse key in recall mode; ok is false for keys it
// leaves to the search's handling (edit, the toggle).
func (p *Search) recallKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := p.c.Keys.Search
	n := len(p.rc.res.Items)
	page := max(p.resultRows()/2, 1)
	switch {
	case key.Matches(msg, k.Up):
		p.rc.cur = clamp(p.rc.cur-1, 0, n-1)
	case key.Matches(msg, k.Down):
		p.rc.cur = clamp(p.rc.cur+1, 0, n-1)
	case key.Matches(msg, k.PageUp):
		p.rc.cur = clamp(p.rc.cur-page, 0, n-1)
	case key.Matches(msg, k.PageDown):
		p.rc.cur = clamp(p.rc.cur+page, 0, n-1)
	case key.Matches(msg, k.Top):
		p.rc.cur = 0
	case key.Matches(msg, k.Bottom):
		p.rc.cur = max(n-1, 0)
	case key.Matches(msg, k.Open):
		if p.rc.cur < n {
			it := p.rc.res.Items[p.rc.cur]
			if it.Kind == "source" {
				return Send(OpenArchive{Path: it.Path, Anchor: it.Anchor}), true
			}
			return Send(OpenBlock{Path: it.Path, ID: it.Ref}), true
		}
	case key.Matches(msg, k.Sort):
	default:
		return nil, false
	}
	return nil, true
}

// recallView is the pane in recall mode: the prompt, then the items in the
// order the agent reads them, each with its section, date, citation and
// tokens, and its text.
func (p *Search) recallView() string {
	st := p.c.Styles
	title := st.Title.Render("Recall")
	switch {
	case p.rc.running:
		title += st.StatusBusy.Render("  recalling…")
	case p.rc.err != nil:
		title += st.Error.Render("  " + Visible(p.rc.err.Error()))
	case p.rc.ran:
		title += st.Faint.Render(fmt.Sprintf("  %s · %d of %d tokens", plural(len(p.rc.res.Items), "item"), p.rc.res.Tokens, p.rc.res.Budget))
	default:
		title += st.Faint.Render("  what an agent is given for a prompt")
	}
	lines := []string{title, p.inputs[fieldQuery].View(), "", "", st.Faint.Render(strings.Repeat("─", max(p.w, 0)))}
	if !p.rc.ran {
		lines = append(lines, Wrap(st.Faint.Render("Press / to type a prompt as an agent's user would, enter recalls: "+
			"the prompt hook and MCP memory_recall give an agent exactly these lines (core memory, this project, "+
			"then what the prompt finds). Enter on a line opens it to correct it; R goes back to search."), p.w)...)
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	if len(p.rc.res.Items) == 0 && !p.rc.running && p.rc.err == nil {
		lines = append(lines, st.Faint.Render("Nothing to recall: an agent gets no memory for this prompt."))
	}
	rows := p.resultRows()
	p.rc.off = scrollTo(p.rc.off, p.rc.cur, rows, len(p.rc.res.Items))
	for i := p.rc.off; i < len(p.rc.res.Items) && i < p.rc.off+rows; i++ {
		it := p.rc.res.Items[i]
		l1 := fmt.Sprintf("%-7s %-10s %s#%s", Visible(it.Kind), Visible(it.Date), Visible(it.Path), Visible(it.Anchor)) +
			st.Faint.Render(fmt.Sprintf("  %d tokens", it.Tokens))
		l2 := st.Faint.Render(OneLine(recalledText(it)))
		if i == p.rc.cur {
			lines = append(lines, cursorRow(st, "› "+l1, p.w), Truncate("  "+l2, p.w))
		} else {
			lines = append(lines, Truncate("  "+l1, p.w), Truncate("  "+l2, p.w))
		}
	}
	return Fit(strings.Join(lines, "\n"), p.w, p.h)
}

// recalledText is an item's line without its citation and date, which the
// first row shows.
func recalledText(it RecalledItem) string {
	t := strings.TrimPrefix(it.Text, "- ["+it.Path+"#"+it.Anchor+"]")
	t = strings.TrimPrefix(t, "- ["+it.Ref+"]") // a source cited by its source-id
	t = strings.TrimPrefix(strings.TrimSpace(t), it.Date)
	return strings.TrimSpace(t)
}
