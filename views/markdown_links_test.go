package views

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"
)

// TestRenderMarkdown_RelativeLinkAsWritten: a link between blocks
// ("../projects/heron.md#^7aaf6c0d") shows its target as the file holds
// it, not as glamour resolves it against no base ("/projects/heron.md#%5E7aaf6c0d",
// a path that is not in the workspace and an id the owner cannot find);
// an external link keeps glamour's rendering.
func TestRenderMarkdown_RelativeLinkAsWritten(t *testing.T) {
	for _, style := range []string{"notty", "dark"} {
		renderLinks(t, Markdown{Style: style, Profile: termenv.Ascii})
	}
}

func renderLinks(t *testing.T, md Markdown) {
	t.Helper()
	for _, c := range []struct{ in, want string }{
		{"see [the deploy rule](../projects/heron.md#^7aaf6c0d).", "../projects/heron.md#^7aaf6c0d"},
		{"as [before](#^0ddba11a) and [her notes](people/my_notes.md)", "#^0ddba11a"},
		{"as [before](#^0ddba11a) and [her notes](people/my_notes.md)", "people/my_notes.md"},
		{"read [the docs](https://example.com/a_b) first", "https://example.com/a_b"},
		{"in [*the* notes](../x/_draft_*.md#^0ddba11a)", "(../x/_draft_*.md#^0ddba11a)"},
	} {
		out, err := renderMarkdown(md, c.in, 100)
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(out), " ")
		if !strings.Contains(flat, c.want) || strings.Contains(flat, "%5E") {
			t.Errorf("%s: %q renders %q, want %q in it", md.Style, c.in, flat, c.want)
		}
		for _, word := range []string{"the deploy rule", "before", "her notes", "the docs"} {
			if strings.Contains(c.in, "["+word+"]") && !strings.Contains(flat, word) {
				t.Errorf("%q renders %q: the link's text %q is gone", c.in, flat, word)
			}
		}
	}
}
