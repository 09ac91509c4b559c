// Package tui is the root Bubble Tea model: panes, focus, window size, the status line, and the dispatch of engine work as tea.Cmd.
//
// The root owns what the panes share: the active pane, the source
// drill-down, the confirmation dialog, the status line with its one spinner,
// the help footer, and every call to the Backend. Panes (package views) never
// call the engine; they send request messages (views.LoadTopic,
// views.Promote, …) and the root runs each one in a command that answers
// with a typed result. Requests and results travel through concurrently
// running commands, so they may reach the loop in any order: a load carries
// a sequence number per kind and thing loaded (a path, a query), and a
// result is dropped only when a newer request for the same thing was made;
// each pane then keeps only results for its current path or query.
//
// Keys are routed in a fixed order: ctrl+c always quits; an open dialog
// takes the next key (y confirms, anything else cancels); a focused text
// input takes every key; then the global keys; then the active pane (or the
// drill-down covering it).
//
// Backend.Changes is watched with a re-armed command: when another process
// changes the workspace every pane reloads. Run starts the program on the
// alternate screen; New builds the model for tests and embedding.
package tui
