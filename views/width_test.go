package views

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// widthCases are strings Width must count exactly as ansi.StringWidth:
// styled rows, wide and combining text, emoji sequences, and everything
// that must fall back to the slow path.
var widthCases = []string{
	"", "a", "plain ascii row", "  › [ ] 01-11 20:48 Stranger (stranger-155): hello",
	"\x1b[1;38;2;179;157;250mbold accent\x1b[0m then plain",
	"\x1b[38;5;245mfaint\x1b[m\x1b[48;2;46;38;80m\x1b[1mcursor row\x1b[0m",
	"周末去北京吃火锅吧，下午已经数据库医院开会", "mixed 周末 ascii \x1b[33m张伟\x1b[0m end",
	"e\u0301 combining after ascii", "\x1b[31me\x1b[0m\u0301 mark after a sequence",
	"👩‍👩‍👧 family", "🇨🇦🇫🇷 flags", "#\ufe0f keycap", "\u00a9\ufe0f",
	"tab\there", "cr\rhere", "nul\x00", "del\x7f", "c1 \u009b31m", "\x9b31m raw c1 byte",
	"invalid \xff\xfe utf8", "\x1b", "\x1b[", "\x1b[31", "esc \x1bX not csi", "\x1b]8;;http://x\x07link\x1b]8;;\x07",
	"\x1b[?25l private", "\x1b[1 q intermediate", "trailing \x1b[0m",
}

func TestWidth_MatchesStringWidth(t *testing.T) {
	for _, s := range widthCases {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Errorf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
	}
}

func TestWidth_StyledRowsMatch(t *testing.T) {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	st := NewStyles(r, DefaultPalette())
	rng := rand.New(rand.NewPCG(1, 2))
	parts := []string{"a", "Stranger", " ", "周末", "e\u0301", "👩‍👩‍👧", "·", "…", "›", "│", "x"}
	styles := []lipgloss.Style{st.Text, st.Faint, st.Header, st.Cursor, st.Pending, st.Trusted}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(12) {
			word := parts[rng.IntN(len(parts))]
			if rng.IntN(2) == 0 {
				word = styles[rng.IntN(len(styles))].Render(word)
			}
			b.WriteString(word)
		}
		s := b.String()
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
		for _, w := range []int{1, 5, 20} {
			if got, want := Truncate(s, w), refTruncate(s, w); got != want {
				t.Fatalf("Truncate(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}

// refTruncate is Truncate as it was before Width.
func refTruncate(line string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(line) <= w {
		return line
	}
	return ansi.Truncate(line, w, "…")
}

func FuzzWidth(f *testing.F) {
	for _, s := range widthCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Width(s), ansi.StringWidth(s); got != want {
			t.Fatalf("Width(%q) = %d, ansi.StringWidth = %d", s, got, want)
		}
		for _, w := range []int{1, 3, 8} {
			if got, want := Truncate(s, w), refTruncate(s, w); got != want {
				t.Fatalf("Truncate(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	})
}
