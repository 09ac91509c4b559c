package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// WithoutTimers returns m with its timers (spinner ticks, notice expiry,
// lock checks) recorded nowhere, so a test outside the package can drive
// the loop until it settles without a clock.
func WithoutTimers(m Model) Model {
	m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
	return m
}
