package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"scriptorium/keymap"
	"scriptorium/views"
)

// The chrome around the panes: layout, the tab bar, the help footer, the
// frame and the mouse on the tabs.

// layout computes the pane area from the chrome: the tab bar on top, the
// status line and the help footer at the bottom, the pane frame around.
func (m Model) layout() (paneW, paneH int, helpView string) {
	var lines []string
	if v := m.helpView(); v != "" {
		lines = strings.Split(v, "\n")
	}
	// The footer never pushes the pane below one line when there is room.
	if room := max(m.height-3, 0); len(lines) > room {
		lines = lines[:room]
	}
	helpView = strings.Join(lines, "\n")
	chrome := 1 + 1 + len(lines) + m.styles.Pane.GetVerticalFrameSize() // tab bar, status line, help
	return max(m.width-m.styles.Pane.GetHorizontalFrameSize(), 0), max(m.height-chrome, 0), helpView
}

// helpMemo is the last help footer drawn and what it was drawn from: the
// footer is the same for most keys, and drawing it is a lipgloss render
// per binding, twice per message (layout runs in Update and View).
type helpMemo struct {
	key, view string
}

// helpView is the help footer for the current keys at the window width.
func (m Model) helpView() string {
	keys := m.helpKeys()
	var k strings.Builder
	fmt.Fprintf(&k, "%d/%t", m.width, m.fullHelp)
	add := func(bs []key.Binding) {
		for _, b := range bs {
			h := b.Help()
			fmt.Fprintf(&k, "\x00%t\x01%s\x01%s", b.Enabled(), h.Key, h.Desc)
		}
		k.WriteByte('\x02')
	}
	if m.fullHelp {
		for _, col := range keys.FullHelp() {
			add(col)
		}
	} else {
		add(keys.ShortHelp())
	}
	if m.helpMemo.key == k.String() && m.helpMemo.key != "" {
		return m.helpMemo.view
	}
	h := m.help
	h.Width, h.ShowAll = m.width, m.fullHelp
	v := h.View(keys)
	*m.helpMemo = helpMemo{key: k.String(), view: v}
	return v
}

// syncSize gives every pane, hidden ones too, the pane area after the
// chrome; it runs after every message because the help footer's height
// depends on what is focused.
func (m *Model) syncSize() tea.Cmd {
	if m.width == 0 {
		return nil
	}
	w, h, _ := m.layout()
	if w == m.paneW && h == m.paneH {
		return nil
	}
	m.paneW, m.paneH = w, h
	for _, p := range m.panes {
		p.SetSize(w, h)
	}
	m.archive.SetSize(w, h)
	m.forget.SetSize(w, h)
	m.picker.SetWidth(w)
	return m.broadcast(views.SizeChanged{})
}

// helpKeys is the key map the footer shows: the dialog's, an input's, or
// the pane's plus the global keys.
func (m Model) helpKeys() help.KeyMap {
	if m.dialog != nil {
		return m.dialog
	}
	if m.picker.IsOpen() {
		return m.picker
	}
	cur := m.current()
	if cur.Capturing() {
		return cur
	}
	return mergedHelp{pane: cur, global: m.keys.Global}
}

type mergedHelp struct {
	pane   help.KeyMap
	global keymap.Global
}

func (h mergedHelp) ShortHelp() []key.Binding {
	return append(h.pane.ShortHelp(), h.global.ShortHelp()...)
}

func (h mergedHelp) FullHelp() [][]key.Binding {
	return append(h.pane.FullHelp(), h.global.FullHelp()...)
}

// View draws the tab bar, the pane (with the dialog over its bottom), the
// status line and the help footer, exactly filling the window.
func (m Model) View() string {
	if m.fatal != nil {
		return m.fatalView()
	}
	if m.width == 0 || m.height == 0 {
		return ""
	}
	w, h, helpView := m.layout()
	var b strings.Builder
	b.WriteString(views.Truncate(m.tabBar(), m.width))
	if h > 0 {
		body := views.Fit(m.current().View(), w, h)
		switch {
		case m.dialog != nil:
			body = overlayBottom(body, m.dialog.View(w), h)
		case m.picker.IsOpen():
			body = overlayBottom(body, m.picker.View(w), h)
		}
		b.WriteString("\n")
		b.WriteString(m.frame(body))
	}
	b.WriteString("\n")
	b.WriteString(m.statusView(m.width))
	if helpView != "" {
		b.WriteString("\n")
		b.WriteString(helpView)
	}
	return views.Fit(b.String(), m.width, m.height)
}

// frame is m.styles.Pane.Render(body) for a pane style of horizontal
// padding only, done by hand: lipgloss measures every line of a block
// three times with ansi.StringWidth, which was half the cost of a frame
// (BENCHMARKS.md, "The TUI at 100k"). Like lipgloss it pads every line to
// the widest. TestFrame_MatchesLipgloss keeps the two the same.
func (m Model) frame(body string) string { return framePane(m.styles.Pane, body) }

func framePane(pane lipgloss.Style, body string) string {
	if strings.Contains(body, "\t") { // as lipgloss does
		body = strings.ReplaceAll(body, "\t", "    ")
	}
	body = strings.ReplaceAll(body, "\r\n", "\n")
	lines := strings.Split(body, "\n")
	widths := make([]int, len(lines))
	widest := 0
	for i, l := range lines {
		widths[i] = views.Width(l)
		widest = max(widest, widths[i])
	}
	left := strings.Repeat(" ", pane.GetPaddingLeft())
	right := pane.GetPaddingRight()
	var b strings.Builder
	b.Grow(len(body) + len(lines)*(len(left)+right+1))
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(left)
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", widest-widths[i]+right))
	}
	return b.String()
}

// overlayBottom replaces the last lines of body with the dialog.
func overlayBottom(body, dialog string, h int) string {
	bl := strings.Split(body, "\n")
	dl := strings.Split(dialog, "\n")
	if len(dl) > h {
		dl = dl[len(dl)-h:]
	}
	return strings.Join(append(bl[:h-len(dl)], dl...), "\n")
}

func (m Model) tabBar() string {
	st := m.styles
	parts := make([]string, 0, numPanes+1)
	for i, p := range m.panes {
		label := string(rune('1'+i)) + " " + p.Title()
		if PaneID(i) == m.active {
			parts = append(parts, st.TabActive.Render("["+label+"]"))
		} else {
			parts = append(parts, st.TabInactive.Render(" "+label+" "))
		}
	}
	bar := strings.Join(parts, " ")
	if m.drilled {
		bar += st.Accent.Render(" › source")
	}
	if m.forgetting {
		bar += st.Warn.Render(" › forget")
	}
	return bar
}

func (m Model) fatalView() string {
	st := m.styles
	w := max(m.width, 20)
	lines := []string{st.StatusError.Render("Scriptorium cannot open the memory workspace"), ""}
	lines = append(lines, views.Wrap(views.Visible(m.fatal.Error()), w)...)
	lines = append(lines, "", st.Faint.Render("Press any key to quit."))
	if m.width == 0 || m.height == 0 {
		return strings.Join(lines, "\n")
	}
	return views.Fit(strings.Join(lines, "\n"), m.width, m.height)
}

// handleMouse turns the wheel into the pane's up and down keys and a click
// on the tab bar into a pane switch. Other clicks are ignored: the keys
// stay the one way to act.
func (m *Model) handleMouse(msg tea.MouseMsg) tea.Cmd {
	if m.dialog != nil || m.fatal != nil || msg.Action != tea.MouseActionPress {
		return nil
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		return m.handleKey(tea.KeyMsg{Type: tea.KeyUp})
	case tea.MouseButtonWheelDown:
		return m.handleKey(tea.KeyMsg{Type: tea.KeyDown})
	case tea.MouseButtonLeft:
		if msg.Y == 0 {
			if p, ok := m.tabAt(msg.X); ok {
				return m.switchTo(p)
			}
		}
	}
	return nil
}

// tabAt returns the pane whose tab covers column x of the tab bar.
func (m Model) tabAt(x int) (PaneID, bool) {
	at := 0
	for i := range m.panes {
		if i > 0 {
			at++ // the space between tabs
		}
		// Every tab is its label and two cells: brackets or padding.
		w := ansi.StringWidth(string(rune('1'+i))+" "+m.panes[i].Title()) + 2
		if x >= at && x < at+w {
			return PaneID(i), true
		}
		at += w
	}
	return 0, false
}
