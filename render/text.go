package render

import (
	"path"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/lazyre"
	"scriptorium/memo"
)

// excerptRunes is the length of an excerpt before it is cut with "…".
const excerptRunes = 120

var (
	// inlineLink matches a Markdown inline link or image target: "](target)"
	// or "](<target>)". Group 1 is a plain target, group 2 a bracketed one.
	inlineLink = lazyre.New(`\]\(([^()\s<>]+)\)|\]\(<([^<>\n]+)>\)`)
	// linkText matches a whole inline link or image, keeping its text.
	linkText = lazyre.New(`!?\[([^\]]*)\]\([^)]*\)`)
	// listMarker matches a Markdown list item marker at the start of a line.
	listMarker = lazyre.New(`^(?:[-*+]|\d{1,9}[.)])\s+`)
)

// rebaseLinks rewrites every relative Markdown link target in s, written
// relative to the directory of the file at from, so that it is relative to
// the workspace root instead. Targets with a scheme, absolute paths and
// anything that is not an inline link are left alone.
func rebaseLinks(s, from string) string {
	locs := inlineLink.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, m := range locs {
		start, end := m[2], m[3]
		if start < 0 {
			start, end = m[4], m[5]
		}
		b.WriteString(s[last:start])
		b.WriteString(rebaseTarget(s[start:end], from))
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// rebaseTarget rewrites one link target; see rebaseLinks.
func rebaseTarget(target, from string) string {
	if strings.HasPrefix(target, "/") || hasScheme(target) {
		return target
	}
	p, frag, hasFrag := strings.Cut(target, "#")
	if p == "" {
		// A bare fragment points into the file itself.
		p = from
	} else {
		p = path.Join(path.Dir(from), p)
	}
	if hasFrag {
		return p + "#" + frag
	}
	return p
}

// hasScheme reports whether target starts with a URL scheme such as
// "https:" or "mailto:".
func hasScheme(target string) bool {
	for i, r := range target {
		switch {
		case r == ':':
			return i > 0
		case r == '/' || r == '#' || r == '?':
			return false
		case unicode.IsLetter(r) || (i > 0 && (unicode.IsDigit(r) || r == '+' || r == '-' || r == '.')):
		default:
			return false
		}
	}
	return false
}

// excerpts memoises excerpt by block text. Every install re-renders the
// timeline and recent events of the whole workspace from unchanged
// blocks; without the memo the two regular expressions below were the
// largest single cost of a writer batch (issue 14).
var excerpts = memo.New(excerptMemoMax, excerptOf)

const excerptMemoMax = 1 << 18

// excerpt returns text on one line, without footnote references and with
// links reduced to their text, cut to at most excerptRunes runes.
func excerpt(text string) string { return excerpts.Get(text) }

func excerptOf(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	text = stripFootnoteRefs(text)
	if strings.Contains(text, "](") { // every link has it; most blocks have none
		text = linkText.ReplaceAllString(text, "$1")
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		item := false
		if loc := listMarker.FindStringIndex(line); loc != nil {
			line, item = line[loc[1]:], true
		}
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			if item {
				b.WriteString("; ")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(line)
	}
	return truncateRunes(b.String(), excerptRunes)
}

// stripFootnoteRefs removes every footnote reference, as
// footnoteRef.ReplaceAllString(s, "") does, without the regular
// expression: every block has references, and the expression was a sixth
// of rendering a fresh process's views (issue 26). A reference is "[^",
// then at least one byte that is neither "]" nor RE2's \s, then "]".
func stripFootnoteRefs(s string) string {
	i := strings.Index(s, "[^")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i >= 0 {
		j := i + 2
		for j < len(s) && s[j] != ']' && !re2Space(s[j]) {
			j++
		}
		next := i + 1
		if j > i+2 && j < len(s) && s[j] == ']' {
			b.WriteString(s[last:i])
			last, next = j+1, j+1
		}
		if k := strings.Index(s[next:], "[^"); k >= 0 {
			i = next + k
		} else {
			i = -1
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// re2Space reports whether c is in RE2's \s class: [\t\n\f\r ].
func re2Space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// truncateRunes cuts s to at most n runes, marking a cut with "…".
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, count := 0, 0
	for i < len(s) && count < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return strings.TrimRightFunc(s[:i], unicode.IsSpace) + "…"
}

// isDate reports whether s is a valid calendar date written YYYY-MM-DD.
// Only such dates name timeline files, so nothing else can reach a path.
func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && len(s) == len(time.DateOnly)
}
