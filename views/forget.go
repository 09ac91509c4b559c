package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Forget is the forget preview: it covers the pane it was opened from and
// shows every place the selected content is and what forgetting does there
// (archive records, topic blocks, core and the other derived views, index
// entries, sessions.db turns, earlier copies), as coloured diffs in a
// scrollable viewport. Nothing changes until the owner presses enter and
// then confirms; esc leaves.
type Forget struct {
	c    *Common
	w, h int

	req     PreviewForget
	res     result.ForgetResult
	loaded  bool
	err     error
	running bool // the forget itself is under way

	vp    viewport.Model
	vpKey string
}

// NewForget returns the forget preview.
func NewForget(c *Common) *Forget { return &Forget{c: c, vp: viewport.New(0, 0)} }

// Open points the preview at a new selection; its diff arrives as
// ForgetPreviewed.
func (f *Forget) Open(req PreviewForget) {
	*f = Forget{c: f.c, w: f.w, h: f.h, req: req, vp: viewport.New(0, 0)}
}

// Title implements Component.
func (f *Forget) Title() string { return "Forget" }

// Init implements Component.
func (f *Forget) Init() tea.Cmd { return nil }

// Refresh implements Component: the preview is computed again, since the
// workspace changed under it.
func (f *Forget) Refresh() tea.Cmd {
	if f.req.What == "" || f.running {
		return nil
	}
	return Send(f.req)
}

// Capturing implements Component.
func (f *Forget) Capturing() bool { return false }

// SetSize implements Component.
func (f *Forget) SetSize(w, h int) {
	f.w, f.h = w, h
	f.fill(len(f.head()))
}

// What names the selection the preview is of.
func (f *Forget) What() string { return f.req.What }

// Result returns the preview shown, and whether it has arrived.
func (f *Forget) Result() (result.ForgetResult, bool) { return f.res, f.loaded && f.err == nil }

// ShortHelp implements help.KeyMap.
func (f *Forget) ShortHelp() []key.Binding {
	k := f.c.Keys.Forget
	return []key.Binding{k.Down, k.PageDown, k.Confirm, k.Back}
}

// FullHelp implements help.KeyMap.
func (f *Forget) FullHelp() [][]key.Binding {
	k := f.c.Keys.Forget
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Confirm, k.Back}}
}

// Update implements Component.
func (f *Forget) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ForgetPreviewed:
		if msg.Request.What != f.req.What {
			return f, nil
		}
		f.loaded, f.err, f.vpKey = true, msg.Err, ""
		if msg.Err == nil {
			f.res = msg.Result
		}
		f.fill(len(f.head()))
	case RunForget:
		f.running = true
	case Forgotten:
		f.running = false
		if msg.Err == nil && msg.Request.What == f.req.What {
			// Done: nothing is left to preview, so the refresh that
			// follows every change must not ask for this one again.
			f.req = PreviewForget{}
			return f, Send(CloseForget{})
		}
	case tea.KeyMsg:
		return f, f.handleKey(msg)
	}
	return f, nil
}

func (f *Forget) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := f.c.Keys.Forget
	switch {
	case key.Matches(msg, k.Back):
		return Send(CloseForget{})
	case key.Matches(msg, k.Up):
		f.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		f.vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		f.vp.HalfPageUp()
	case key.Matches(msg, k.PageDown):
		f.vp.HalfPageDown()
	case key.Matches(msg, k.Top):
		f.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		f.vp.GotoBottom()
	case key.Matches(msg, k.Confirm):
		return f.confirm()
	}
	return nil
}

// confirm asks, saying what goes and that it is final.
func (f *Forget) confirm() tea.Cmd {
	switch {
	case f.running:
		return Send(Notice{Text: "the forget is already running"})
	case !f.loaded:
		return Send(Notice{Text: "the preview is still loading: see what goes first"})
	case f.err != nil:
		return Send(Notice{Text: "nothing to forget: " + Visible(f.err.Error()), Err: true})
	}
	return Send(Confirm{Prompt: ForgetPrompt(f.req.What, f.res), Action: RunForget{Selector: f.req.Selector, What: f.req.What}})
}

// ForgetPrompt is the confirmation of a forget: how many records of whom,
// what leaves the topics and the turns, and that it is final.
func ForgetPrompt(what string, r result.ForgetResult) string {
	return fmt.Sprintf("Forget %s of %s? Their text leaves the archive (tombstones keep source-id, anchor and time); "+
		"%s and %s leave the topics, %s %s blanked, and every copy listed above is scrubbed. "+
		"This cannot be reverted. y to confirm, any other key cancels",
		plural(len(r.Sources), "record"), what, plural(len(r.Blocks), "block"), plural(r.Citations, "citation"),
		plural(r.Turns, "sessions.db turn"), isAre(r.Turns))
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// head is the title, the counts and what the keys do, wrapped to the width.
func (f *Forget) head() []string {
	st := f.c.Styles
	head := []string{st.Title.Render("Forget " + Visible(f.req.What))}
	switch {
	case f.err != nil:
		head = append(head, Wrap(st.Error.Render("nothing to forget: "+Visible(f.err.Error())), f.w)...)
		return append(head, st.Faint.Render("esc leaves"))
	case !f.loaded:
		return append(head, st.Faint.Render("listing everything that holds it…"))
	}
	r := f.res
	head = append(head, WrapParts([]string{plural(len(r.Sources), "record"), plural(len(r.Blocks), "block"),
		plural(r.Citations, "citation"), plural(r.Turns, "sessions.db turn"), plural(len(r.Changes), "place")}, " · ", f.w)...)
	note := "enter forgets them after a confirmation · esc leaves, nothing changes"
	if f.running {
		note = "forgetting…"
	}
	return append(head, Wrap(st.Warn.Render(note), f.w)...)
}

// fill sizes the viewport under the head and gives it the diffs when the
// preview or the width changed, so keys scroll it before the next View.
func (f *Forget) fill(head int) {
	if !f.loaded || f.err != nil {
		return
	}
	f.vp.Width, f.vp.Height = f.w, max(f.h-head, 0)
	if k := fmt.Sprintf("%s/%d", f.req.What, f.w); k != f.vpKey {
		files := make([]result.FileDiff, 0, len(f.res.Changes))
		for _, c := range f.res.Changes {
			files = append(files, result.FileDiff{Path: "[" + c.Kind + "] " + c.Path, Diff: c.Diff})
		}
		f.vp.SetContent(renderDiffs(f.c.Styles, files, f.w))
		f.vp.GotoTop()
		f.vpKey = k
	}
	f.vp.SetYOffset(f.vp.YOffset) // re-clamp after a resize
}

// View implements Component.
func (f *Forget) View() string {
	head := f.head()
	f.fill(len(head))
	if !f.loaded || f.err != nil || f.h <= len(head) {
		return Fit(strings.Join(head, "\n"), f.w, f.h)
	}
	return Fit(strings.Join(head, "\n")+"\n"+f.vp.View(), f.w, f.h)
}
