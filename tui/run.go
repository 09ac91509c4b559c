package tui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// Run opens the TUI on the alternate screen and returns when the owner
// quits (q, or ctrl+c at any time); the terminal is restored either way.
func Run(b Backend, opts Options) error {
	if b == nil {
		return errors.New("tui: no backend")
	}
	opts = fromEnv(opts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := New(b, opts)
	m.ctx = ctx
	// Cell motion reports the wheel and clicks (scroll, pick a pane); a
	// terminal's own selection works with shift held, as usual.
	if _, err := tea.NewProgram(m, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx)).Run(); err != nil {
		return fmt.Errorf("run tui: %w", err)
	}
	return nil
}

// RunError shows a start-up failure full screen until any key is pressed
// (glow's fatal error screen), for when the workspace cannot be opened.
func RunError(cause error, opts Options) error {
	opts = fromEnv(opts)
	m := New(nil, opts)
	m.fatal = cause
	if _, err := tea.NewProgram(m, tea.WithAltScreen()).Run(); err != nil {
		return fmt.Errorf("run tui: %w", err)
	}
	return nil
}

// fromEnv applies NO_COLOR and asks the terminal for its background once,
// before Bubble Tea owns stdin: a query while the program reads input can
// swallow keys.
func fromEnv(opts Options) Options {
	if os.Getenv("NO_COLOR") != "" {
		opts.NoColor = true
	}
	if opts.NoColor {
		return opts
	}
	dark := lipgloss.HasDarkBackground() // cached by lipgloss for the adaptive colours too
	if opts.MarkdownStyle == "" {
		opts.MarkdownStyle = "light"
		if dark {
			opts.MarkdownStyle = "dark"
		}
	}
	return opts
}
