package topic

import (
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	blockIDTail  = regexp.MustCompile(`\s\^[0-9a-f]{8}\s*$`)
	footnoteLike = regexp.MustCompile(`\[\^`)
	linkLike     = regexp.MustCompile(`\]\(`)
)

// maxSafeRunes bounds a summary block made from message text.
const maxSafeRunes = 600

// BlockSafe turns message text into one paragraph line that cannot be
// mistaken for topic syntax: whitespace runs (newlines included) become one
// space, and footnote references, links and a trailing block id in the
// message are defused. The archive keeps the exact bytes; this is a summary.
func BlockSafe(content string) string {
	text := strings.Join(strings.Fields(content), " ")
	text = footnoteLike.ReplaceAllString(text, "[ ^")
	text = linkLike.ReplaceAllString(text, "] (")
	text = blockIDTail.ReplaceAllString(text, "")
	runes := []rune(text)
	if len(runes) > maxSafeRunes {
		text = string(runes[:maxSafeRunes]) + "…"
	}
	return strings.TrimSpace(text)
}

// TrailingBlockID returns the block id a paragraph ends in (" ^<8 hex>"),
// or "" when it ends in none.
func TrailingBlockID(para string) string {
	m := blockIDTail.FindString(para)
	if m == "" {
		return ""
	}
	return strings.TrimSpace(m)[1:]
}

// RelPath is the link from the file at workspace path from to the
// workspace path target, as a footnote writes it ("../../sources/…").
func RelPath(from, target string) string {
	r, err := filepath.Rel(filepath.FromSlash(path.Dir(from)), filepath.FromSlash(target))
	if err != nil {
		return target
	}
	return filepath.ToSlash(r)
}

// ResolvePath resolves a link rel written in the file at workspace path
// from to a workspace path; "" when it leaves the workspace.
func ResolvePath(from, rel string) string {
	joined := path.Clean(path.Join(path.Dir(from), rel))
	if joined == ".." || strings.HasPrefix(joined, "../") || path.IsAbs(rel) {
		return ""
	}
	return joined
}

// Slug makes a safe lower-case file name from a display name or heading;
// letters of any script survive so Chinese names still get their own file.
func Slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 60 {
		// 60 bytes, cut at a letter's start: a Cyrillic or Greek name
		// takes two bytes a letter, and half a letter is no file name.
		cut := 60
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = strings.Trim(out[:cut], "-")
	}
	return out
}
