package tui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/views"
)

// The forget flow: a pane asks for the preview (PreviewForget), which
// opens the forget view over the active pane and computes the dry run off
// the loop; enter there asks to confirm and the confirmation runs the
// forget as a mutation; success or esc closes the view.

// forgetRequest handles the forget requests; it reports false for other
// messages.
func (m *Model) forgetRequest(msg tea.Msg) (tea.Cmd, bool) {
	b := m.b
	switch r := msg.(type) {
	case views.PreviewForget:
		if !m.forgetting || !sameForget(m.forget, r) {
			m.forget.Open(r)
		}
		m.forgetting = true
		return m.run(kindForgetPreview, "forget "+r.What, "listing what forgetting "+r.What+" removes",
			func(ctx context.Context) (tea.Msg, error) {
				res, err := b.Forget(ctx, r.Selector, true)
				return views.ForgetPreviewed{Request: r, Result: res, Err: err}, err
			}), true
	case views.RunForget:
		return m.mutate(kindForget, "forgetting "+r.What, r, func(ctx context.Context) (tea.Msg, error) {
			res, err := b.Forget(ctx, r.Selector, false)
			return views.Forgotten{Request: r, Result: res, Err: err}, err
		}), true
	case views.CloseForget:
		m.forgetting = false
		return nil, true
	}
	return nil, false
}

// sameForget reports whether the open preview is of r already (a refresh
// keeps its scroll position).
func sameForget(f *views.Forget, r views.PreviewForget) bool { return f.What() == r.What }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// forgetText says what a forget removed.
func forgetText(r views.Forgotten) string {
	res := r.Result
	parts := []string{plural(len(res.Sources), "record") + " now tombstones"}
	if n := len(res.Blocks); n > 0 {
		parts = append(parts, plural(n, "block")+" removed")
	}
	if res.Citations > 0 {
		parts = append(parts, plural(res.Citations, "citation")+" dropped")
	}
	if res.Turns > 0 {
		parts = append(parts, plural(res.Turns, "sessions.db turn")+" blanked")
	}
	return fmt.Sprintf("forgot %s (revision %d): %s; %s cleaned", r.Request.What, res.Revision,
		strings.Join(parts, ", "), plural(len(res.Changes), "place"))
}
