// Package views holds one Bubble Tea component per pane (pending, topics, source drill-down, core, passes, search, status).
//
// Every pane implements Component (soft-serve's shape: Init, Update, View,
// SetSize, and help.KeyMap for its bindings). A pane's View returns exactly
// the size it was given (Fit), so the root can stack panes without
// measuring. Panes hold no engine handle: they return commands that emit
// the request messages of msgs.go and receive the matching result messages.
// Markdown is rendered with glamour inside a command and cached by (text,
// width). Stored text is shown through Visible, so a record can never send
// control sequences to the owner's terminal.
//
// Styles come from one semantic Palette; the only colour values of the TUI
// live in DefaultPalette.
package views
