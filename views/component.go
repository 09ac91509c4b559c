package views

import (
	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"scriptorium/keymap"
)

// Component is one pane (soft-serve's component shape). Panes never call the
// engine: they return commands that emit request messages (LoadTopic,
// Promote, …), the root runs the engine work and sends the typed result back.
type Component interface {
	help.KeyMap
	Init() tea.Cmd
	Update(msg tea.Msg) (Component, tea.Cmd)
	View() string
	// SetSize gives the pane its content area; View returns exactly h lines
	// no wider than w cells.
	SetSize(w, h int)
	// Refresh returns the requests that reload the pane's data.
	Refresh() tea.Cmd
	// Capturing reports whether a text input of the pane has the focus; the
	// root then hands it every key except ctrl+c.
	Capturing() bool
	// Title is the pane's name in the tab bar, with a count where useful.
	Title() string
}

// Markdown says how block markdown is rendered: chosen once at start-up.
type Markdown struct {
	Style   string          // glamour standard style: "dark", "light", "notty"
	Profile termenv.Profile // colour profile glamour writes for
}

// Common is what every pane shares: styles, key bindings, markdown settings.
type Common struct {
	Styles   *Styles
	Keys     *keymap.KeyMap
	Markdown Markdown
}

// Send wraps a message in a command, the way panes hand requests to the root.
// Commands run concurrently, so requests (and their results) can reach the
// root in any order: a pane keeps only results for its current path or
// query, and the root drops only results overtaken by a newer request for
// the same one.
func Send(msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return msg }
}

// newInput builds a text input in the shared style. The cursor does not
// blink: no timer runs while the owner types and views stay deterministic.
func newInput(c *Common, prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	in.PromptStyle = c.Styles.InputPrompt
	in.TextStyle = c.Styles.InputText
	in.PlaceholderStyle = c.Styles.InputPlaceholder
	in.Cursor.Style = c.Styles.Accent
	in.Cursor.SetMode(cursor.CursorStatic)
	return in
}
