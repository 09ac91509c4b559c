package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// scenes are the screens worth a golden file: each pane, plus the dialog,
// the drill-down and the full help. Each runs keys on a fresh model.
var scenes = []struct {
	name string
	keys []string
	text string // typed after the keys
	then []string
	// withProposal starts the fake with a sleep pass waiting for the owner.
	withProposal bool
}{
	{name: "pending"},
	{name: "pending_confirm", keys: []string{"space", "space", "p"}},
	{name: "pending_sender_confirm", keys: []string{"P"}},
	{name: "topics", keys: []string{"2", "down", "enter"}},
	{name: "drilldown", keys: []string{"2", "down", "enter", "enter", "down", "enter"}},
	{name: "core", keys: []string{"3", "down"}},
	{name: "core_open", keys: []string{"3", "G", "enter"}},
	{name: "passes", keys: []string{"4"}},
	{name: "search", keys: []string{"5", "/"}, text: "budget tracker", then: []string{"enter"}},
	{name: "search_recall", keys: []string{"5", "R", "/"}, text: "budget tracker", then: []string{"enter"}},
	{name: "status", keys: []string{"6"}},
	{name: "fullhelp", keys: []string{"?"}},
	{name: "passes_proposal", keys: []string{"4"}, withProposal: true},
	{name: "passes_proposal_file2", keys: []string{"4", "l"}, withProposal: true},
	{name: "passes_proposal_accept", keys: []string{"4", "A"}, withProposal: true},
	{name: "passes_revert_preview", keys: []string{"4", "R"}},
	{name: "pending_reject_reason", keys: []string{"space", "space", "x"}, text: "off topic"},
	{name: "pending_reject_confirm", keys: []string{"space", "space", "x"}, text: "off topic", then: []string{"enter"}},
	{name: "pending_rejected", keys: []string{"R"}},
	{name: "audit", keys: []string{"7"}},
	{name: "audit_write_sources", keys: []string{"7", "down", "l"}},
	{name: "audit_diff", keys: []string{"7", "down", "enter"}},
	{name: "audit_revert_preview", keys: []string{"7", "down", "down", "R"}},
	{name: "core_explain", keys: []string{"3", "G", "e"}},
	{name: "core_pin_confirm", keys: []string{"3", "G", "P"}},
	{name: "core_open_sources", keys: []string{"3", "down", "enter", "l"}},
	{name: "forget_preview", keys: []string{"F"}},
	{name: "forget_confirm", keys: []string{"F", "enter"}},
	{name: "forget_thread_scrolled", keys: []string{"T", "pgdown"}},
	{name: "drilldown_forget", keys: []string{"2", "down", "enter", "enter", "down", "enter", "F"}},
	{name: "topics_delete_linked", keys: []string{"2", "down", "enter", "D"}},
	{name: "topics_delete_confirm", keys: []string{"2", "down", "enter", "down", "D"}},
	{name: "topics_move_picker", keys: []string{"2", "down", "enter", "M"}, text: "pro"},
	{name: "core_move_confirm", keys: []string{"3", "down", "M"}, text: "people/dana#Friends", then: []string{"enter"}},
}

func playScene(h *harness, i int) {
	s := scenes[i]
	h.press(s.keys...)
	h.typeText(s.text)
	h.press(s.then...)
}

func TestGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}} {
		for i, s := range scenes {
			t.Run(fmt.Sprintf("%s_%dx%d", s.name, size[0], size[1]), func(t *testing.T) {
				f := newFakeBackend()
				if s.withProposal {
					f.proposals = append(f.proposals, fakeProposal())
				}
				h := newHarnessWith(t, f, size[0], size[1])
				playScene(h, i)
				golden.RequireEqual(t, h.m.View())
			})
		}
	}
}
