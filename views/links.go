package views

import (
	"path"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// blockLink is a relative link in a block's text, resolved against the
// block's file so enter can follow it: to a block (OpenBlock) or a source
// record (OpenArchive).
type blockLink struct {
	text, target string
	path, anchor string // workspace path and fragment; path "" when it leaves the workspace
}

// linkRE finds Markdown links; images and footnote references are not
// links to follow.
var linkRE = regexp.MustCompile(`(^|[^!])\[([^\]\^][^\]]*)\]\(([^)\s]+)\)`)

// blockLinks lists the block's relative links in text order; external
// links (a scheme or //host) are left out.
func blockLinks(b result.BlockView) []blockLink {
	var out []blockLink
	for _, m := range linkRE.FindAllStringSubmatch(b.Text, -1) {
		target := m[3]
		if external(target) {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		l := blockLink{text: m[2], target: target, anchor: anchor}
		switch {
		case file == "":
			l.path = b.Path
		default:
			joined := path.Clean(path.Join(path.Dir(b.Path), file))
			if !strings.HasPrefix(joined, "../") && joined != ".." {
				l.path = joined
			}
		}
		out = append(out, l)
	}
	return out
}

// external reports whether a link target leaves the workspace: a scheme
// or //host.
func external(target string) bool {
	return strings.Contains(target, "://") || strings.HasPrefix(target, "//") || strings.HasPrefix(target, "mailto:")
}

// plainRelativeLinks writes each relative link of Markdown text as its
// text and its target as the file holds it ("the rule (../x.md#^id)"):
// glamour resolves a relative target against no base, which shows
// "/x.md#%5Eid", a path the workspace does not have, and drops an
// anchor-only one. External links keep glamour's rendering.
func plainRelativeLinks(text string) string {
	return linkRE.ReplaceAllStringFunc(text, func(m string) string {
		sm := linkRE.FindStringSubmatch(m)
		if external(sm[3]) {
			return m
		}
		return sm[1] + sm[2] + " (" + escapeEmphasis(sm[3]) + ")"
	})
}

// escapeEmphasis backslash-escapes the characters of s that Markdown
// would take for emphasis or code ("*", "_", "`"); glamour shows the
// others as they are, and keeps the backslash of an escaped "/" or "^".
func escapeEmphasis(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '*' || r == '_' || r == '`' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// follow opens what the link points at.
func (l blockLink) follow() tea.Cmd {
	switch {
	case l.path == "":
		return Send(Notice{Text: "the link " + Visible(l.target) + " leaves the workspace", Err: true})
	case strings.HasPrefix(l.path, "sources/"):
		return Send(OpenArchive{Path: l.path, Anchor: l.anchor})
	case strings.HasPrefix(l.anchor, "^"):
		return Send(OpenBlock{Path: l.path, ID: strings.TrimPrefix(l.anchor, "^")})
	}
	return Send(OpenBlock{Path: l.path})
}
