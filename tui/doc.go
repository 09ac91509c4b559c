// Package tui is the root Bubble Tea model: panes, focus, window size, the status line, and the dispatch of engine work as tea.Cmd.
package tui
