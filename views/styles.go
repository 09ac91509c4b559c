package views

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
)

// Palette is the semantic colour set of the TUI. These are the only colour
// values in the program; everything else refers to them by meaning.
type Palette struct {
	Primary   lipgloss.AdaptiveColor // ordinary text that matters
	Faint     lipgloss.AdaptiveColor // secondary text, separators, hunk headers
	Accent    lipgloss.AdaptiveColor // focus, cursor, active tab
	Warn      lipgloss.AdaptiveColor // confirmation dialogs, excluded blocks
	Error     lipgloss.AdaptiveColor // failures
	Pending   lipgloss.AdaptiveColor // pending (untrusted) material
	Trusted   lipgloss.AdaptiveColor // trusted material
	Added     lipgloss.AdaptiveColor // diff additions
	Removed   lipgloss.AdaptiveColor // diff removals
	Selection lipgloss.AdaptiveColor // background of the cursor row
}

// DefaultPalette returns the palette used unless colour is off.
func DefaultPalette() Palette {
	return Palette{
		Primary:   lipgloss.AdaptiveColor{Light: "#1F1F24", Dark: "#E6E6EB"},
		Faint:     lipgloss.AdaptiveColor{Light: "#8A8A93", Dark: "#6E6E78"},
		Accent:    lipgloss.AdaptiveColor{Light: "#5B3CC4", Dark: "#B39DFA"},
		Warn:      lipgloss.AdaptiveColor{Light: "#A85400", Dark: "#FFA94D"},
		Error:     lipgloss.AdaptiveColor{Light: "#C21F1F", Dark: "#FF6B6B"},
		Pending:   lipgloss.AdaptiveColor{Light: "#8F6A00", Dark: "#FFD43B"},
		Trusted:   lipgloss.AdaptiveColor{Light: "#237A35", Dark: "#69DB7C"},
		Added:     lipgloss.AdaptiveColor{Light: "#237A35", Dark: "#8CE99A"},
		Removed:   lipgloss.AdaptiveColor{Light: "#C21F1F", Dark: "#FFA8A8"},
		Selection: lipgloss.AdaptiveColor{Light: "#E8E0FF", Dark: "#2E2650"},
	}
}

// Styles is every style of the TUI, built once at start-up from a palette
// and a renderer. Nothing builds styles while rendering.
type Styles struct {
	Pane lipgloss.Style // frame around the active pane's content

	TabActive   lipgloss.Style
	TabInactive lipgloss.Style

	Title   lipgloss.Style
	Header  lipgloss.Style // column headers, group headers
	Text    lipgloss.Style
	Faint   lipgloss.Style
	Accent  lipgloss.Style
	Warn    lipgloss.Style
	Error   lipgloss.Style
	Pending lipgloss.Style
	Trusted lipgloss.Style

	Cursor    lipgloss.Style // the row under the cursor
	Marked    lipgloss.Style // multi-selected rows
	Highlight lipgloss.Style // the frame a drill-down points at

	DiffAdd    lipgloss.Style
	DiffDel    lipgloss.Style
	DiffHunk   lipgloss.Style
	DiffHeader lipgloss.Style

	GaugeFull  lipgloss.Style
	GaugeEmpty lipgloss.Style

	StatusInfo  lipgloss.Style
	StatusError lipgloss.Style
	StatusBusy  lipgloss.Style

	Dialog lipgloss.Style

	InputPrompt      lipgloss.Style
	InputText        lipgloss.Style
	InputPlaceholder lipgloss.Style

	Help help.Styles
}

// NewStyles builds the styles from a palette with a renderer. A renderer
// with the Ascii profile yields plain text, which is how NO_COLOR is
// honoured.
func NewStyles(r *lipgloss.Renderer, p Palette) Styles {
	s := r.NewStyle
	return Styles{
		Pane: s().Padding(0, 1),

		TabActive:   s().Bold(true).Foreground(p.Accent),
		TabInactive: s().Foreground(p.Faint),

		Title:   s().Bold(true).Foreground(p.Primary),
		Header:  s().Bold(true).Foreground(p.Accent),
		Text:    s().Foreground(p.Primary),
		Faint:   s().Foreground(p.Faint),
		Accent:  s().Foreground(p.Accent),
		Warn:    s().Foreground(p.Warn),
		Error:   s().Foreground(p.Error),
		Pending: s().Foreground(p.Pending),
		Trusted: s().Foreground(p.Trusted),

		Cursor:    s().Bold(true).Foreground(p.Accent).Background(p.Selection),
		Marked:    s().Foreground(p.Accent),
		Highlight: s().Foreground(p.Accent),

		DiffAdd:    s().Foreground(p.Added),
		DiffDel:    s().Foreground(p.Removed),
		DiffHunk:   s().Foreground(p.Faint),
		DiffHeader: s().Bold(true).Foreground(p.Primary),

		GaugeFull:  s().Foreground(p.Trusted),
		GaugeEmpty: s().Foreground(p.Faint),

		StatusInfo:  s().Foreground(p.Trusted),
		StatusError: s().Bold(true).Foreground(p.Error),
		StatusBusy:  s().Foreground(p.Accent),

		Dialog: s().Border(lipgloss.RoundedBorder()).BorderForeground(p.Warn).Padding(0, 1),

		InputPrompt:      s().Foreground(p.Accent),
		InputText:        s().Foreground(p.Primary),
		InputPlaceholder: s().Foreground(p.Faint),

		Help: help.Styles{
			Ellipsis:       s().Foreground(p.Faint),
			ShortKey:       s().Foreground(p.Accent),
			ShortDesc:      s().Foreground(p.Faint),
			ShortSeparator: s().Foreground(p.Faint),
			FullKey:        s().Foreground(p.Accent),
			FullDesc:       s().Foreground(p.Faint),
			FullSeparator:  s().Foreground(p.Faint),
		},
	}
}
