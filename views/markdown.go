package views

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/glamour"
)

// mdKey identifies one markdown render: the same text at the same width
// renders the same, so renders are cached by it.
type mdKey struct {
	text  string
	width int
}

// mdRendered carries a finished render back to the pane that asked.
type mdRendered struct {
	key mdKey
	out string
	err error
}

// mdCache holds finished renders and remembers which are under way.
type mdCache struct {
	done     map[mdKey]string
	inflight map[mdKey]bool
}

// mdCacheLimit bounds the cache; a resize storm otherwise keeps every width.
const mdCacheLimit = 256

func newMDCache() *mdCache {
	return &mdCache{done: map[mdKey]string{}, inflight: map[mdKey]bool{}}
}

// get returns a finished render.
func (c *mdCache) get(k mdKey) (string, bool) {
	s, ok := c.done[k]
	return s, ok
}

// request returns the command that renders k, or nil when it is cached or
// already under way.
func (c *mdCache) request(md Markdown, k mdKey) tea.Cmd {
	if k.width < 1 {
		return nil
	}
	if _, ok := c.done[k]; ok || c.inflight[k] {
		return nil
	}
	c.inflight[k] = true
	return func() tea.Msg {
		out, err := renderMarkdown(md, k.text, k.width)
		return mdRendered{key: k, out: out, err: err}
	}
}

// store records a finished render; a failed one is stored as the plain
// text so the pane does not ask again.
func (c *mdCache) store(r mdRendered) {
	delete(c.inflight, r.key)
	if len(c.done) >= mdCacheLimit {
		clear(c.done)
	}
	out := r.out
	if r.err != nil {
		out = Visible(r.key.text)
	}
	c.done[r.key] = out
}

// renderMarkdown runs glamour. A renderer is built per call because
// glamour's TermRenderer is not safe for concurrent use and commands run
// concurrently; results are cached, so this is rare.
func renderMarkdown(md Markdown, text string, width int) (string, error) {
	r, err := glamour.NewTermRenderer(
		glamour.WithStandardStyle(md.Style),
		glamour.WithColorProfile(md.Profile),
		glamour.WithWordWrap(width),
	)
	if err != nil {
		return "", err
	}
	// Visible first: stored text must not reach the terminal as control codes.
	out, err := r.Render(plainRelativeLinks(Visible(text)))
	if err != nil {
		return "", err
	}
	return trimBlankLines(out), nil
}

// trimBlankLines drops the blank lines glamour puts around a document and
// the trailing spaces it pads lines with.
func trimBlankLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}
