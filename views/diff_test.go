package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"scriptorium/engine/result"
)

// Rough edge: pass diffs cut long lines. They wrap (the marker repeated on
// each continuation), and wide panes show the two sides next to each other.
func TestRenderDiffs_WrapsAndSideBySide(t *testing.T) {
	st := newCommon(termenv.Ascii).Styles
	long := strings.Repeat("the router is an OpenWrt device ", 6)
	files := []result.FileDiff{{Path: "topics/x.md", Diff: "--- a/topics/x.md\n+++ b/topics/x.md\n@@ -1,3 +1,3 @@\n # X\n-" + long + "^aaaaaaa1\n+" + long + "now. ^aaaaaaa1\n"}}
	narrow := ansi.Strip(renderDiffs(st, files, 60))
	for _, l := range strings.Split(narrow, "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line is wider than the pane: %q", l)
		}
	}
	if !strings.Contains(narrow, "-»") || !strings.Contains(narrow, "+»") || !strings.Contains(narrow, "now. ^aaaaaaa1") {
		t.Errorf("long lines are not wrapped in full:\n%s", narrow)
	}
	wide := ansi.Strip(renderDiffs(st, files, 160))
	found := false
	for _, l := range strings.Split(wide, "\n") {
		if ansi.StringWidth(l) > 160 {
			t.Errorf("a side-by-side line is wider than the pane: %q", l)
		}
		if strings.HasPrefix(l, "- the router") && strings.Contains(l, "│ + the router") {
			found = true
		}
	}
	if !found {
		t.Errorf("no side-by-side row with the old and the new line:\n%s", wide)
	}
}
