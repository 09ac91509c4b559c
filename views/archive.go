package views

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Archive is the source drill-down: one archive, scrolled to the frame a
// footnote or search result points at, with that frame highlighted.
type Archive struct {
	c    *Common
	w, h int

	path   string
	anchor string
	view   result.ArchiveView
	loaded bool
	err    error

	cur  int  // selected frame
	off  int  // first visible body line
	jump bool // put the selected frame at the top on the next View

	lines *archiveLines // every frame drawn unselected, for the loaded archive at a width
}

// archiveLines is the archive's body drawn once per load and width, so a
// key draws only the visible lines (and the selected frame again, marked)
// instead of every record of a large archive.
type archiveLines struct {
	w      int
	frames [][]string // frame i, unselected
	start  []int      // body line at which frame i starts
	total  int        // body lines, a blank line between frames
}

// NewArchive returns the drill-down view.
func NewArchive(c *Common) *Archive { return &Archive{c: c} }

// Open points the view at an archive and anchor and asks for the archive.
func (a *Archive) Open(path, anchor string) tea.Cmd {
	a.path, a.anchor = path, anchor
	a.loaded, a.err = false, nil
	a.view, a.lines = result.ArchiveView{}, nil
	a.cur, a.off, a.jump = 0, 0, true
	return Send(LoadArchive{Path: path})
}

// Title implements Component.
func (a *Archive) Title() string { return "Source" }

// Init implements Component.
func (a *Archive) Init() tea.Cmd { return nil }

// Refresh implements Component.
func (a *Archive) Refresh() tea.Cmd {
	if a.path == "" {
		return nil
	}
	return Send(LoadArchive{Path: a.path})
}

// Capturing implements Component.
func (a *Archive) Capturing() bool { return false }

// SetSize implements Component.
func (a *Archive) SetSize(w, h int) { a.w, a.h = w, h }

// Selected returns the selected frame.
func (a *Archive) Selected() (result.SourceView, bool) {
	if !a.loaded || a.cur >= len(a.view.Sources) {
		return result.SourceView{}, false
	}
	return a.view.Sources[a.cur], true
}

// ShortHelp implements help.KeyMap.
func (a *Archive) ShortHelp() []key.Binding {
	k := a.c.Keys.Archive
	return []key.Binding{k.Up, k.Down, k.Back, k.Forget}
}

// FullHelp implements help.KeyMap.
func (a *Archive) FullHelp() [][]key.Binding {
	k := a.c.Keys.Archive
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Back, k.Forget}}
}

// Update implements Component.
func (a *Archive) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ArchiveLoaded:
		if msg.Path != a.path {
			return a, nil
		}
		first := !a.loaded
		a.loaded, a.err = true, msg.Err
		if msg.Err != nil {
			return a, nil
		}
		a.view, a.lines = msg.Archive, nil
		if first {
			a.cur = 0
			for i, s := range a.view.Sources {
				if s.Anchor == a.anchor {
					a.cur = i
				}
			}
			a.jump = true
		}
		a.cur = clamp(a.cur, 0, len(a.view.Sources)-1)
	case tea.KeyMsg:
		k := a.c.Keys.Archive
		switch {
		case key.Matches(msg, k.Back):
			return a, Send(CloseArchive{})
		case key.Matches(msg, k.Forget):
			return a, a.forget()
		case key.Matches(msg, k.Up):
			a.move(-1)
		case key.Matches(msg, k.Down):
			a.move(1)
		case key.Matches(msg, k.PageUp):
			a.move(-5)
		case key.Matches(msg, k.PageDown):
			a.move(5)
		case key.Matches(msg, k.Top):
			a.move(-len(a.view.Sources))
		case key.Matches(msg, k.Bottom):
			a.move(len(a.view.Sources))
		}
	}
	return a, nil
}

func (a *Archive) move(d int) {
	a.cur = clamp(a.cur+d, 0, len(a.view.Sources)-1)
}

// View implements Component.
func (a *Archive) View() string {
	st := a.c.Styles
	head := []string{st.Title.Render("Source archive  ") + st.Faint.Render(Visible(a.path))}
	switch {
	case a.err != nil:
		head = append(head, Wrap(st.Error.Render("could not load: "+Visible(a.err.Error())), a.w)...)
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	case !a.loaded:
		head = append(head, st.Faint.Render("loading…"))
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	}
	kind := "v2 archive"
	if a.view.Legacy {
		kind = "legacy archive (frozen; speaker names are hints, never trusted)"
	}
	head = append(head, st.Faint.Render(fmt.Sprintf("%s · %s · drilled to %s", kind,
		plural(len(a.view.Sources), "frame"), Visible(a.anchor))))
	if a.view.Problem != "" {
		head = append(head, st.Warn.Render("⚠ parsing stopped early: "+Visible(a.view.Problem)))
	}
	bh := a.h - len(head)
	if bh <= 0 {
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	}
	if len(a.view.Sources) == 0 {
		head = append(head, st.Faint.Render("This archive holds no valid frame."))
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	}
	al := a.drawn()
	start := al.start[a.cur]
	end := start + len(al.frames[a.cur])
	switch {
	case a.jump:
		a.off = start
		a.jump = false
	case start < a.off:
		a.off = start
	case end > a.off+bh:
		a.off = min(start, end-bh)
	}
	// The last page is always full: a frame near the end shows with the
	// frames before it instead of above a screenful of empty rows. The
	// selected frame stays in view: it starts at or below the offset and
	// ends at or before the end of the lines.
	a.off = clamp(a.off, 0, max(al.total-bh, 0))
	return Fit(strings.Join(append(head, al.window(a.off, bh, a.cur, a.frame(a.view.Sources[a.cur], true))...), "\n"), a.w, a.h)
}

// drawn returns the archive's body lines at the current width, drawing
// them when the archive or the width changed.
func (a *Archive) drawn() *archiveLines {
	if a.lines != nil && a.lines.w == a.w {
		return a.lines
	}
	al := &archiveLines{w: a.w, frames: make([][]string, len(a.view.Sources)), start: make([]int, len(a.view.Sources))}
	for i, s := range a.view.Sources {
		if i > 0 {
			al.total++ // the blank line between frames
		}
		al.start[i] = al.total
		al.frames[i] = a.frame(s, false)
		al.total += len(al.frames[i])
	}
	a.lines = al
	return al
}

// window returns n body lines from line off, with frame cur drawn as sel.
func (al *archiveLines) window(off, n, cur int, sel []string) []string {
	out := make([]string, 0, n)
	i := sort.Search(len(al.start), func(i int) bool { return al.start[i] > off }) - 1 // the frame holding off
	for line := off; i < len(al.frames) && len(out) < n; i++ {
		f := al.frames[i]
		if i == cur {
			f = sel
		}
		if i > 0 && line == al.start[i]-1 {
			out = append(out, "") // the blank line before frame i
			line++
		}
		for j := line - al.start[i]; j < len(f) && len(out) < n; j++ {
			out = append(out, f[j])
			line++
		}
	}
	return out
}

// frame renders one record: anchor and source-id, then time, speaker and
// trust, then the record text verbatim.
func (a *Archive) frame(s result.SourceView, selected bool) []string {
	st := a.c.Styles
	w := max(a.w-2, 1)
	title := Visible(s.Anchor) + " · " + Visible(s.Ref)
	if s.Anchor == a.anchor {
		title += "  ◀ cited"
	}
	// The speaker's identity and the record's trust are named apart: a
	// verified speaker's record can still be pending review.
	who := "speaker " + speakerStyled(st, s.SpeakerLabel, s.SpeakerID, s.SpeakerTrusted, s.Legacy)
	if s.SpeakerLabel == "" {
		who = Visible(s.Label) + " · " + st.Faint.Render("no speaker identity")
	}
	tm := Visible(s.Time)
	if tm == "" {
		tm = "time unknown"
	}
	meta := fmt.Sprintf("%s · %s · record %s", tm, who, recordStyled(st, s.Trust))
	text := s.Text
	if text == "" {
		text = s.Content
	}
	body := Wrap(Visible(text), w)
	if s.Forgotten {
		// A tombstone: only source-id, anchor and time are left.
		meta = fmt.Sprintf("%s · %s", tm, st.Faint.Render("forgotten by the owner: the record's text is gone"))
		body = nil
	}

	prefix := "  "
	if selected {
		prefix = st.Highlight.Render("▌ ")
		title = st.Highlight.Render(title)
	} else {
		title = st.Faint.Render(title)
	}
	out := []string{prefix + Truncate(title, w), prefix + Truncate(meta, w)}
	for _, l := range body {
		out = append(out, prefix+l)
	}
	return out
}
