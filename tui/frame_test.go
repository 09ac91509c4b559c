package tui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"scriptorium/views"
)

// TestFrame_MatchesLipgloss: the pane frame drawn by hand is byte for byte
// what the Pane style renders, in colour and without, for bodies of styled,
// wide, short, empty and tabbed lines. If the Pane style gains a border or
// margins this fails, and frame must learn them (or go back to Render).
func TestFrame_MatchesLipgloss(t *testing.T) {
	for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		r := lipgloss.NewRenderer(nil)
		r.SetColorProfile(profile)
		st := views.NewStyles(r, views.DefaultPalette())
		rng := rand.New(rand.NewPCG(3, 4))
		words := []string{"", "a", "pending", "周末去北京", "e\u0301", " ", "│", "\t", st.Faint.Render("faint"),
			st.Cursor.Render("cursor row"), st.Header.Render("张伟")}
		for range 500 {
			lines := make([]string, 1+rng.IntN(8))
			for i := range lines {
				var b strings.Builder
				for range rng.IntN(6) {
					b.WriteString(words[rng.IntN(len(words))])
				}
				lines[i] = b.String()
			}
			body := strings.Join(lines, "\n")
			if got, want := framePane(st.Pane, body), st.Pane.Render(body); got != want {
				t.Fatalf("profile %v, body %q:\n got %q\nwant %q", profile, body, got, want)
			}
		}
	}
}
