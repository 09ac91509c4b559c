package topic

import (
	"regexp"
	"strings"
)

var mdLinkTarget = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// Rebase rewrites the relative link and citation targets of a topic file
// that moves from one workspace path to another, so they keep pointing at
// the same files. final maps a workspace path to where it moves (itself
// when it stays), so links to the moved file itself and to files moved
// with it follow them. Anchors, external and mailto links are kept.
func Rebase(data []byte, from, to string, final func(string) string) []byte {
	if data == nil {
		return nil
	}
	return mdLinkTarget.ReplaceAllFunc(data, func(m []byte) []byte {
		target := string(m[2 : len(m)-1])
		if target == "" || strings.HasPrefix(target, "#") || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			return m
		}
		p, frag, _ := strings.Cut(target, "#")
		resolved := ResolvePath(from, p)
		if resolved == "" {
			return m
		}
		nt := RelPath(to, final(resolved))
		if frag != "" {
			nt += "#" + frag
		}
		return []byte("](" + nt + ")")
	})
}
