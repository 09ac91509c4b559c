package views

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/muesli/termenv"

	"scriptorium/engine/result"
)

// TestArchive_WindowMatchesFullRender: the drill-down draws only the
// visible lines of an archive; walking it with every key at several sizes
// must show exactly what drawing every frame did (refArchiveView).
func TestArchive_WindowMatchesFullRender(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var srcs []result.SourceView
	for i := range 60 {
		srcs = append(srcs, result.SourceView{Ref: fmt.Sprintf("telegram/g/m%03d", i), Anchor: fmt.Sprintf("source-%03d", i),
			Time: "2025-01-02T03:04:05Z", Label: "alice", SpeakerLabel: "Alice", Trust: "pending",
			Text: strings.Repeat("words of a record ", rng.IntN(12)), Forgotten: i%17 == 5})
	}
	for _, size := range [][2]int{{80, 24}, {40, 10}, {120, 7}, {30, 3}} {
		a := NewArchive(newCommon(termenv.TrueColor))
		a.SetSize(size[0], size[1])
		a.Open("sources/telegram/_v2/g.md", "source-030")
		a.Update(ArchiveLoaded{Path: "sources/telegram/_v2/g.md", Archive: result.ArchiveView{Path: "sources/telegram/_v2/g.md", Sources: srcs}})
		ref := *a
		keys := []string{"j", "j", "k", "pgdown", "pgdown", "G", "k", "g", "pgdown", "j", "pgup"}
		for i := range 80 {
			if got, want := a.View(), refArchiveView(&ref); got != want {
				t.Fatalf("size %v after %d keys:\n got:\n%s\nwant:\n%s", size, i, got, want)
			}
			k := runes(keys[rng.IntN(len(keys))])
			switch k.String() {
			case "pgdown":
				k = tea.KeyMsg{Type: tea.KeyPgDown}
			case "pgup":
				k = tea.KeyMsg{Type: tea.KeyPgUp}
			}
			a.Update(k)
			ref.Update(k)
		}
	}
}

// refArchiveView is Archive.View as it was: every frame drawn, then cut.
func refArchiveView(a *Archive) string {
	st := a.c.Styles
	head := []string{st.Title.Render("Source archive  ") + st.Faint.Render(Visible(a.path))}
	head = append(head, st.Faint.Render(fmt.Sprintf("%s · %s · drilled to %s", "v2 archive",
		plural(len(a.view.Sources), "frame"), a.anchor)))
	bh := a.h - len(head)
	if bh <= 0 {
		return Fit(strings.Join(head, "\n"), a.w, a.h)
	}
	var lines []string
	var start, end int
	for i, s := range a.view.Sources {
		if i == a.cur {
			start = len(lines)
		}
		lines = append(lines, a.frame(s, i == a.cur)...)
		if i == a.cur {
			end = len(lines)
		}
		lines = append(lines, "")
	}
	lines = lines[:len(lines)-1]
	switch {
	case a.jump:
		a.off = start
		a.jump = false
	case start < a.off:
		a.off = start
	case end > a.off+bh:
		a.off = min(start, end-bh)
	}
	a.off = clamp(a.off, 0, max(len(lines)-bh, 0))
	body := lines[a.off:min(len(lines), a.off+bh)]
	return Fit(strings.Join(append(head, body...), "\n"), a.w, a.h)
}
