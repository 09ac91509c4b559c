package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/keymap"
)

// curateKey turns E, D and M on a block into the owner's requests: edit
// its text, delete it (previewed, then confirmed), move it (the picker
// first). ok is false for other keys.
func curateKey(k keymap.Curate, msg tea.KeyMsg, id, path, text string) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, k.Edit):
		return Send(EditBlock{ID: id, Path: path}), true
	case key.Matches(msg, k.Delete):
		return Send(PreviewDelete{ID: id, Path: path}), true
	case key.Matches(msg, k.Move):
		return Send(PickTopic{ID: id, Path: path, Text: text}), true
	}
	return nil, false
}

// curateHelp is the help of curateKey's keys.
func curateHelp(k keymap.Curate) []key.Binding { return []key.Binding{k.Edit, k.Delete, k.Move} }
