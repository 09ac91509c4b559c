package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/curate"
	"scriptorium/workspace"
)

// maxPicks is how many matching topic files the picker lists at once.
const maxPicks = 5

// Picker is the topic picker of a block move (M): a path input with
// completion over the existing topic files, where a new path is allowed
// too ("people/dana" creates topics/people/dana.md) and "PATH#Heading"
// puts the block under that heading. The root owns it and draws it over
// the bottom of the active pane; enter asks for the move's preview, esc
// closes it with nothing changed.
type Picker struct {
	c     *Common
	open  bool
	req   PickTopic
	input textinput.Model
	all   []string // the existing topic files
	picks []string // those matching the input, in order
	cur   int      // the highlighted pick, -1 for none
}

// NewPicker returns a closed picker.
func NewPicker(c *Common) *Picker {
	return &Picker{c: c, cur: -1, input: newInput(c, "to: ", "topic path, e.g. people/dana (new files are created)")}
}

// Open shows the picker for req and asks for the topic list.
func (p *Picker) Open(req PickTopic) tea.Cmd {
	p.open, p.req, p.cur = true, req, -1
	p.input.SetValue("")
	p.filter()
	return tea.Batch(p.input.Focus(), Send(LoadTopics{}))
}

// Value is the typed text.
func (p *Picker) Value() string { return p.input.Value() }

// IsOpen reports whether the picker has the keys.
func (p *Picker) IsOpen() bool { return p.open }

// SetWidth sizes the input to the pane: the box, the prompt and the
// cursor fit in w.
func (p *Picker) SetWidth(w int) {
	p.input.Width = max(w-p.c.Styles.Dialog.GetHorizontalFrameSize()-Width(p.input.Prompt)-1, 1)
}

// ShortHelp implements help.KeyMap.
func (p *Picker) ShortHelp() []key.Binding {
	k := p.c.Keys.Picker
	return []key.Binding{k.Choose, k.Complete, k.Up, k.Down, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (p *Picker) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// Update takes the topic list and, while open, the keys.
func (p *Picker) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case TopicsLoaded:
		if msg.Err == nil {
			p.all = p.all[:0]
			for _, t := range msg.Topics {
				p.all = append(p.all, t.Path)
			}
			sort.Strings(p.all)
			p.filter()
		}
	case tea.KeyMsg:
		if p.open {
			return p.key(msg)
		}
	}
	return nil
}

func (p *Picker) key(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Picker
	switch {
	case key.Matches(msg, k.Cancel):
		p.close()
		return Send(Notice{Text: "move cancelled, nothing changed"})
	case key.Matches(msg, k.Choose):
		return p.choose()
	case key.Matches(msg, k.Complete):
		if len(p.picks) > 0 {
			p.input.SetValue(strings.TrimPrefix(p.picks[max(p.cur, 0)], "topics/"))
			p.input.CursorEnd()
			p.filter()
		}
		return nil
	case key.Matches(msg, k.Up):
		if len(p.picks) > 0 {
			p.cur = max(p.cur-1, 0)
		}
		return nil
	case key.Matches(msg, k.Down):
		if len(p.picks) > 0 {
			p.cur = min(p.cur+1, len(p.picks)-1)
		}
		return nil
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.filter()
	return cmd
}

// choose takes the highlighted pick, else the typed path, and asks for the
// move's preview.
func (p *Picker) choose() tea.Cmd {
	to, under := p.target()
	if p.cur >= 0 && p.cur < len(p.picks) {
		to = p.picks[p.cur]
	}
	if to == "" {
		return Send(Notice{Text: "type a topic path first (tab completes one), or esc to cancel", Err: true})
	}
	// A bad path is refused here, the picker kept open with what was
	// typed: the engine's refusal after enter lost it.
	if msg := workspace.CheckTopicPath(to); msg != "" {
		return Send(Notice{Text: "not a topic path: " + Visible(to) + ": " + msg, Err: true})
	}
	p.close()
	return Send(PreviewMove{ID: p.req.ID, From: p.req.Path, To: to, Under: under})
}

// target is the typed path as a workspace path, and the heading after "#".
func (p *Picker) target() (to, under string) {
	v, under, _ := strings.Cut(p.input.Value(), "#")
	return curate.TopicPath(v), strings.TrimSpace(under)
}

func (p *Picker) close() {
	p.open = false
	p.input.Blur()
}

// filter lists the topic files whose path holds the typed text, the
// block's own file left out.
func (p *Picker) filter() {
	v, _, _ := strings.Cut(p.input.Value(), "#")
	q := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(v, "topics/")))
	p.picks = p.picks[:0]
	for _, t := range p.all {
		if t != p.req.Path && strings.Contains(strings.ToLower(strings.TrimPrefix(t, "topics/")), q) {
			p.picks = append(p.picks, t)
		}
	}
	if p.cur >= len(p.picks) {
		p.cur = len(p.picks) - 1
	}
}

// View draws the picker in a box at most w cells wide.
func (p *Picker) View(w int) string {
	st := p.c.Styles
	inner := max(w-st.Dialog.GetHorizontalFrameSize(), 1)
	lines := []string{Truncate(fmt.Sprintf("Move ^%s from %s: %s", Visible(p.req.ID), Visible(p.req.Path), OneLine(p.req.Text)), inner),
		Truncate(p.input.View(), inner)}
	to, under := p.target()
	exists := false
	for _, t := range p.all {
		exists = exists || t == to
	}
	switch {
	case p.cur >= 0: // the highlighted file is the target
	case to == "":
		lines = append(lines, st.Faint.Render(Truncate("type a path or choose a topic file below", inner)))
	case workspace.CheckTopicPath(to) != "":
		lines = append(lines, st.Error.Render(Truncate("not a topic path: "+workspace.CheckTopicPath(to), inner)))
	case !exists:
		lines = append(lines, st.Accent.Render(Truncate("new file: "+Visible(to), inner)))
	}
	first := 0
	if p.cur >= maxPicks {
		first = p.cur - maxPicks + 1
	}
	for i := first; i < len(p.picks) && i < first+maxPicks; i++ {
		row := "  " + Visible(p.picks[i])
		if i == p.cur {
			row = st.Cursor.Render(Truncate("› "+Visible(p.picks[i]), inner))
		}
		lines = append(lines, Truncate(row, inner))
	}
	if n := len(p.picks) - first - maxPicks; n > 0 {
		lines = append(lines, st.Faint.Render(fmt.Sprintf("  … %d more (↓)", n)))
	}
	if under != "" {
		lines = append(lines, Truncate("under the heading "+Visible(under)+" (added when missing)", inner))
	}
	if inner < 10 {
		return strings.Join(lines, "\n")
	}
	return st.Dialog.Render(strings.Join(lines, "\n"))
}
