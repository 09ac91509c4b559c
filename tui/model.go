package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"scriptorium/keymap"
	"scriptorium/views"
)

// Options configures the TUI.
type Options struct {
	// NoColor renders plain text: no colours, no attributes. Run sets it
	// when NO_COLOR is set in the environment.
	NoColor bool
	// Pane is the pane shown first (PanePending by default).
	Pane PaneID
	// MarkdownStyle is the glamour style for blocks; empty chooses "notty"
	// without colour, else "dark" or "light" from the terminal background.
	MarkdownStyle string
	// Notice is shown in the status line from the start, until something
	// else replaces it (the state dir was made private, for instance).
	Notice string
}

// Model is the root Bubble Tea model: the six panes, the source
// drill-down, the confirmation dialog, the status line and the help footer.
// It runs every piece of engine work as a command and routes the results.
type Model struct {
	b      Backend
	ctx    context.Context
	keys   *keymap.KeyMap
	styles *views.Styles
	common *views.Common
	help   help.Model

	panes      [numPanes]views.Component
	pending    *views.Pending
	topics     *views.Topics
	core       *views.Core
	passes     *views.Passes
	search     *views.Search
	statusPane *views.Status
	audit      *views.Audit
	archive    *views.Archive
	forget     *views.Forget
	// picker is the topic picker of a block move, drawn over the pane.
	picker *views.Picker

	active  PaneID
	drilled bool // the archive covers the active pane
	// forgetting: the forget preview covers the active pane (and the
	// drill-down it may have been opened from).
	forgetting bool
	dialog     *views.Dialog
	fullHelp   bool
	fatal      error

	width, height int
	paneW, paneH  int

	seq     map[reqKey]int // the newest request per key still running
	lastSeq int
	tasks   *taskRegistry
	status  statusLine
	boot    *bootState
	// helpMemo caches the help footer (a pointer: View has a value receiver).
	helpMemo *helpMemo

	// after schedules a message; tests replace it so no timer runs.
	after func(d time.Duration, msg tea.Msg) tea.Cmd
	// exec runs the editor with the terminal (tea.ExecProcess) and getenv
	// finds it ($VISUAL, $EDITOR); tests replace both.
	exec   func(c *exec.Cmd, fn tea.ExecCallback) tea.Cmd
	getenv func(string) string
}

// New builds the root model. It does no IO: the first data arrives through
// the commands Init returns.
func New(b Backend, opts Options) Model {
	r := lipgloss.DefaultRenderer()
	profile := r.ColorProfile()
	if opts.NoColor {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.Ascii)
		profile = termenv.Ascii
	}
	style := opts.MarkdownStyle
	if style == "" {
		switch {
		case opts.NoColor:
			style = "notty"
		case r.HasDarkBackground():
			style = "dark"
		default:
			style = "light"
		}
	}
	km := keymap.Default()
	st := views.NewStyles(r, views.DefaultPalette())
	c := &views.Common{Styles: &st, Keys: &km, Markdown: views.Markdown{Style: style, Profile: profile}}

	h := help.New()
	h.Styles = st.Help

	m := Model{
		b:      b,
		ctx:    context.Background(),
		keys:   &km,
		styles: &st,
		common: c,
		help:   h,

		pending:    views.NewPending(c),
		topics:     views.NewTopics(c),
		core:       views.NewCore(c),
		passes:     views.NewPasses(c),
		search:     views.NewSearch(c),
		statusPane: views.NewStatus(c),
		audit:      views.NewAudit(c),
		archive:    views.NewArchive(c),
		forget:     views.NewForget(c),
		picker:     views.NewPicker(c),

		active:   opts.Pane,
		seq:      map[reqKey]int{},
		tasks:    newTaskRegistry(),
		boot:     &bootState{},
		helpMemo: &helpMemo{},
		after: func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		},
		exec:   execEditor,
		getenv: os.Getenv,
	}
	if m.active < 0 || m.active >= numPanes {
		m.active = PanePending
	}
	m.panes = [numPanes]views.Component{m.pending, m.topics, m.core, m.passes, m.search, m.statusPane, m.audit}
	m.status.text = opts.Notice
	return m
}

// bootState orders the first loads. The pane shown first loads alone and
// the others once no engine work runs (or when the owner switches to one),
// because a cold engine reads the workspace again for every load running
// at the same time: at 100k records the first pane's data took 2.5–7 s
// with every load at once, and under 1 s alone (BENCHMARKS.md, "The TUI
// at 100k").
type bootState struct {
	inited [numPanes]bool // the pane has been asked for its data
	rest   bool           // every pane has
}

// Init loads the pane shown and starts listening for workspace changes;
// the other panes load after it (bootState).
func (m Model) Init() tea.Cmd {
	m.boot.inited[m.active] = true
	first := m.panes[m.active].Init()
	if first == nil {
		return tea.Batch(m.watch(), m.initRest())
	}
	return tea.Batch(m.watch(), first)
}

// initRest asks every pane not asked yet for its data.
func (m *Model) initRest() tea.Cmd {
	if m.boot.rest {
		return nil
	}
	m.boot.rest = true
	var cmds []tea.Cmd
	for i, p := range m.panes {
		if !m.boot.inited[i] {
			m.boot.inited[i] = true
			cmds = append(cmds, p.Init())
		}
	}
	return tea.Batch(cmds...)
}

// State reports what the model is doing.
func (m Model) State() State {
	switch {
	case m.fatal != nil:
		return StateFatal
	case m.width == 0:
		return StateStarting
	case m.dialog != nil:
		return StateConfirming
	case m.picker.IsOpen():
		return StateEditing
	case m.drilled || m.forgetting:
		return StateDrilled
	case m.panes[m.active].Capturing():
		return StateEditing
	}
	return StateBrowsing
}

// Active returns the pane shown.
func (m Model) Active() PaneID { return m.active }

// Status returns the status line text and whether it is an error.
func (m Model) Status() (string, bool) { return m.status.text, m.status.err }

// current is the component that receives pane keys: the drill-down when
// open, else the active pane.
func (m Model) current() views.Component {
	if m.forgetting {
		return m.forget
	}
	if m.drilled {
		return m.archive
	}
	return m.panes[m.active]
}

// Update routes a message: keys by the routing order, requests to the
// engine, results and everything else to the panes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 0), max(msg.Height, 0)
	case tea.KeyMsg:
		cmd = m.handleKey(msg)
	case tea.MouseMsg:
		cmd = m.handleMouse(msg)
	case spinTickMsg:
		cmd = m.onSpinTick()
	case lockCheckMsg:
		cmd = m.onLockCheck(msg)
	case lockHolderMsg:
		cmd = m.onLockHolder(msg)
	case clearNoticeMsg:
		if msg.id == m.status.id && !m.status.err {
			m.status.text = ""
		}
	case changedMsg:
		cmd = tea.Batch(m.refreshAll(), m.watch())
	case resultMsg:
		cmd = m.onResult(msg)
	default:
		if c, ok := m.request(msg); ok {
			cmd = c
		} else {
			cmd = m.broadcast(msg)
		}
	}
	sized := m.syncSize() // before the return: it changes m
	return m, tea.Batch(cmd, sized)
}

// broadcast hands a message to every pane and the drill-down.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.panes)+1)
	for i, p := range m.panes {
		var c tea.Cmd
		m.panes[i], c = p.Update(msg)
		cmds = append(cmds, c)
	}
	_, c := m.archive.Update(msg)
	_, fc := m.forget.Update(msg)
	pc := m.picker.Update(msg)
	return tea.Batch(append(cmds, c, fc, pc)...)
}

// refreshAll reloads the data of every pane (and an open drill-down).
func (m *Model) refreshAll() tea.Cmd {
	m.boot.rest = true // this loads every pane
	m.boot.inited = [numPanes]bool{true, true, true, true, true, true, true}
	cmds := make([]tea.Cmd, 0, len(m.panes)+1)
	for _, p := range m.panes {
		cmds = append(cmds, p.Refresh())
	}
	if m.drilled {
		cmds = append(cmds, m.archive.Refresh())
	}
	if m.forgetting {
		cmds = append(cmds, m.forget.Refresh())
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleKey(msg tea.KeyMsg) tea.Cmd {
	g := m.keys.Global
	if key.Matches(msg, g.ForceQuit) || m.fatal != nil {
		return tea.Quit
	}
	if m.status.err {
		m.status.text, m.status.err = "", false
	}
	if m.dialog != nil {
		d := m.dialog
		m.dialog = nil
		if d.Accepts(msg) {
			return views.Send(d.Action)
		}
		return m.setNotice("cancelled, nothing changed")
	}
	if m.picker.IsOpen() {
		return m.picker.Update(msg)
	}
	cur := m.current()
	if cur.Capturing() {
		_, cmd := cur.Update(msg)
		return cmd
	}
	if msg.String() == "esc" && m.tasks.cancel != nil {
		return m.cancelMutation()
	}
	if msg.String() == "esc" && m.fullHelp {
		m.fullHelp = false // esc closes the full help, like any overlay
		return nil
	}
	switch {
	case key.Matches(msg, g.Quit):
		return tea.Quit
	case key.Matches(msg, g.Help):
		m.fullHelp = !m.fullHelp
		return nil
	case key.Matches(msg, g.Refresh):
		return tea.Batch(m.setNotice("reloading every pane from disk"), m.refreshAll())
	case key.Matches(msg, g.NextPane):
		return m.switchTo((m.active + 1) % numPanes)
	case key.Matches(msg, g.PrevPane):
		return m.switchTo((m.active + numPanes - 1) % numPanes)
	}
	for i, b := range g.Panes {
		if key.Matches(msg, b) {
			return m.switchTo(PaneID(i))
		}
	}
	_, cmd := cur.Update(msg)
	return cmd
}

// switchTo shows pane p, asking for its data if it has not loaded yet.
func (m *Model) switchTo(p PaneID) tea.Cmd {
	m.active = p
	m.drilled, m.forgetting = false, false
	if m.boot.inited[p] {
		return nil
	}
	m.boot.inited[p] = true
	return m.panes[p].Init()
}

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
