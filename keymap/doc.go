// Package keymap holds every key binding of the TUI and the help it produces.
package keymap
