package views

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Dialog is a pending confirmation: the owner answers y to run Action; any
// other key cancels. The root owns it and draws it over the bottom of the
// active pane, so the material it is about stays in view.
type Dialog struct {
	c      *Common
	Prompt string
	Action tea.Msg
}

// NewDialog returns a dialog for a Confirm request.
func NewDialog(c *Common, req Confirm) *Dialog {
	return &Dialog{c: c, Prompt: req.Prompt, Action: req.Action}
}

// Accepts reports whether a key confirms the dialog.
func (d *Dialog) Accepts(msg tea.KeyMsg) bool {
	return key.Matches(msg, d.c.Keys.Confirm.Yes)
}

// ShortHelp implements help.KeyMap.
func (d *Dialog) ShortHelp() []key.Binding {
	return []key.Binding{d.c.Keys.Confirm.Yes,
		key.NewBinding(key.WithKeys("any"), key.WithHelp("any other key", "cancel"))}
}

// FullHelp implements help.KeyMap.
func (d *Dialog) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// View renders the dialog at most w cells wide.
func (d *Dialog) View(w int) string {
	st := d.c.Styles.Dialog
	inner := w - st.GetHorizontalFrameSize()
	if inner < 10 {
		return strings.Join(Wrap(d.c.Styles.Warn.Render(Visible(d.Prompt)), max(w, 1)), "\n")
	}
	text := strings.Join(Wrap(Visible(d.Prompt), inner), "\n")
	return st.Render(text)
}
