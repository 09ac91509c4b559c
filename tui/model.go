package tui

import (
	"context"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
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
