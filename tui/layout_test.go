package tui

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"scriptorium/views"
)

// checkBlock fails unless s is exactly h lines, none wider than w cells.
func checkBlock(t *testing.T, what, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if h == 0 {
		if s != "" {
			t.Errorf("%s at %dx%d: want nothing, got %q", what, w, h, s)
		}
		return
	}
	if len(lines) != h {
		t.Errorf("%s at %dx%d: %d lines, want %d", what, w, h, len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s at %dx%d: line %d is %d cells wide: %q", what, w, h, i, lw, l)
		}
	}
}

// TestLayout renders every scene on a grid of window sizes: the root view
// always fills the window exactly, and every pane (hidden ones too) renders
// exactly the area the root gave it.
func TestLayout(t *testing.T) {
	for i, s := range scenes {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, 80, 24)
			playScene(h, i)
			for w := 20; w <= 200; w += 20 {
				for ht := 5; ht <= 50; ht += 5 {
					h.send(tea.WindowSizeMsg{Width: w, Height: ht})
					checkBlock(t, "root", h.m.View(), w, ht)
					comps := append([]views.Component{h.m.archive, h.m.forget}, h.m.panes[:]...)
					for _, c := range comps {
						checkBlock(t, fmt.Sprintf("pane %s", c.Title()), c.View(), h.m.paneW, h.m.paneH)
					}
				}
			}
		})
	}
}

// TestLayout_TinySizes degrades without panicking down to nothing.
func TestLayout_TinySizes(t *testing.T) {
	for i, s := range scenes {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, 80, 24)
			playScene(h, i)
			for _, size := range [][2]int{{0, 0}, {1, 1}, {2, 1}, {1, 2}, {3, 3}, {10, 2}, {19, 4}, {400, 3}, {6, 120}} {
				h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				v := h.m.View()
				if size[0] > 0 && size[1] > 0 {
					checkBlock(t, "root", v, size[0], size[1])
				}
				for _, c := range append([]views.Component{h.m.archive, h.m.forget}, h.m.panes[:]...) {
					for _, ps := range [][2]int{{0, 0}, {1, 1}, {size[0], size[1]}} {
						c.SetSize(ps[0], ps[1])
						checkBlock(t, "pane "+c.Title(), c.View(), ps[0], ps[1])
					}
				}
			}
		})
	}
}

// TestLayout_Colour repeats a coarser grid with true-colour styles and
// glamour's dark style: escape sequences must not break the measurements.
func TestLayout_Colour(t *testing.T) {
	for i, s := range scenes {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			f := newFakeBackend()
			h := &harness{t: t, f: f}
			m := New(f, Options{MarkdownStyle: "dark"})
			r := lipgloss.NewRenderer(io.Discard)
			r.SetColorProfile(termenv.TrueColor)
			*m.styles = views.NewStyles(r, views.DefaultPalette())
			m.common.Markdown = views.Markdown{Style: "dark", Profile: termenv.TrueColor}
			m.help.Styles = m.styles.Help
			m.after = func(time.Duration, tea.Msg) tea.Cmd { return nil }
			h.m = m
			h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
			h.run(h.m.Init())
			playScene(h, i)
			if !strings.Contains(h.m.View(), "\x1b[") {
				t.Fatal("no colour in the colour view")
			}
			for w := 20; w <= 200; w += 60 {
				for ht := 5; ht <= 50; ht += 15 {
					h.send(tea.WindowSizeMsg{Width: w, Height: ht})
					checkBlock(t, "root", h.m.View(), w, ht)
				}
			}
		})
	}
}
