package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// Status is pane 6: workspace id, revision, lock holder, writer status,
// index state and the model/provider.
type Status struct {
	c    *Common
	w, h int

	status result.Status
	loaded bool
	err    error
	off    int
}

// NewStatus returns the status pane.
func NewStatus(c *Common) *Status { return &Status{c: c} }

// Title implements Component.
func (p *Status) Title() string { return "Status" }

// Init implements Component.
func (p *Status) Init() tea.Cmd { return p.Refresh() }

// Refresh implements Component.
func (p *Status) Refresh() tea.Cmd { return Send(LoadStatus{}) }

// Capturing implements Component.
func (p *Status) Capturing() bool { return false }

// SetSize implements Component.
func (p *Status) SetSize(w, h int) { p.w, p.h = w, h }

// Data returns the last status loaded.
func (p *Status) Data() (result.Status, bool) { return p.status, p.loaded && p.err == nil }

// ShortHelp implements help.KeyMap.
func (p *Status) ShortHelp() []key.Binding {
	return []key.Binding{p.c.Keys.Status.Up, p.c.Keys.Status.Down, p.c.Keys.Global.Refresh}
}

// FullHelp implements help.KeyMap.
func (p *Status) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// Update implements Component.
func (p *Status) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case StatusLoaded:
		p.loaded, p.err = true, msg.Err
		if msg.Err == nil {
			p.status = msg.Status
		}
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.c.Keys.Status.Up):
			p.off = max(p.off-1, 0)
		case key.Matches(msg, p.c.Keys.Status.Down):
			p.off++
		}
	}
	return p, nil
}

// ModelLabel says which model writes memory; the offline provider is
// always labelled as such (SPEC §7).
func ModelLabel(model string) string {
	if model == "" || model == "offline" || strings.HasPrefix(model, "offline:") || strings.HasPrefix(model, "offline/") {
		return "offline (built-in deterministic model, no network)"
	}
	return model
}

// View implements Component.
func (p *Status) View() string {
	st := p.c.Styles
	lines := []string{st.Title.Render("Status")}
	switch {
	case p.err != nil:
		lines = append(lines, Wrap(st.Error.Render("could not load: "+Visible(p.err.Error())), p.w)...)
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	case !p.loaded:
		lines = append(lines, st.Faint.Render("loading…"))
		return Fit(strings.Join(lines, "\n"), p.w, p.h)
	}
	s := p.status
	orNone := func(v, none string) string {
		if v == "" {
			return st.Faint.Render(none)
		}
		return Visible(v)
	}
	section := func(name string) string { return st.Header.Render(name) }
	field := func(name, value string) string { return "  " + st.Faint.Render(PadRight(name, 15)) + value }

	lock := st.Trusted.Render("free")
	if s.LockHolder != "" {
		lock = st.Warn.Render("held by " + Visible(s.LockHolder))
	}
	body := []string{
		section("Workspace"),
		field("id", orNone(s.WorkspaceID, "unknown")),
		field("revision", fmt.Sprintf("%d", s.Revision)),
		field("backend", orNone(s.Backend, "unknown")),
		field("state dir", orNone(s.StateDir, "unknown")),
		field("write lock", lock),
		section("Writer"),
		field("last success", orNone(s.Writer.LastSuccessAt, "never")),
	}
	if f := s.Writer.LastFailure; f != nil {
		retry := st.Warn.Render("will be retried")
		if !f.Retryable {
			retry = st.Error.Render("will not be retried")
		}
		body = append(body,
			field("last failure", st.Error.Render(string(f.Code))+" at "+orNone(f.At, "unknown time")+" · "+retry),
			field("", Visible(f.Message)))
	} else {
		body = append(body, field("last failure", st.Faint.Render("none")))
	}
	// A session the writer gave up on for good stays pending; say which.
	for _, f := range s.Writer.FailedSessions {
		body = append(body, field("failed session", st.Error.Render(string(f.Code))+" "+Visible(f.Provider+"/"+f.Session)+" at "+orNone(f.At, "unknown time")))
	}
	body = append(body,
		field("pending turns", fmt.Sprintf("%d", s.Writer.PendingTurns)),
		section("Index"),
		field("documents", fmt.Sprintf("%d", s.Index.Documents)),
		field("format", fmt.Sprintf("%d", s.Index.Format)),
		field("fresh", freshLabel(st, s.Index.Fresh)),
		section("Core"),
		field("budget", fmt.Sprintf("%d / %d tokens · %d included · %d excluded · %d pending",
			s.Core.Tokens, s.Core.Budget, len(s.Core.Included), len(s.Core.Excluded), len(s.Core.Pending))),
		section("Model"),
		field("provider", Visible(ModelLabel(s.Model))),
	)
	room := max(p.h-1, 0)
	p.off = clamp(p.off, 0, max(len(body)-room, 0))
	lines = append(lines, body[p.off:]...)
	return Fit(strings.Join(lines, "\n"), p.w, p.h)
}

func freshLabel(st *Styles, fresh bool) string {
	if fresh {
		return st.Trusted.Render("yes")
	}
	return st.Warn.Render("no (stale; rebuilt before use)")
}
