// Package keymap holds every key binding of the TUI and the help it produces.
//
// Bindings are data (bubbles/key): the panes match keys with key.Matches
// against these bindings, the help footer renders their help text, and
// docs/keybindings.md is generated from them with `go run ./keymap/gen`.
// Bindings are grouped by scope; within a scope (plus the global keys where
// they apply) no key may mean two things, which a test enforces.
package keymap
