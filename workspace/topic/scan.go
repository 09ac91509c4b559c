package topic

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// maxDestination bounds how far a link destination is scanned, so a long
// line full of "](" cannot make scanning quadratic. Real destinations are
// far shorter.
const maxDestination = 2048

// maxParenDepth is CommonMark's limit on nested parentheses in a bare link
// destination; it also keeps overlapping failed scans short.
const maxParenDepth = 32

// maskCodeSpans blanks inline code spans (backticks included) with spaces,
// keeping newlines, so references and links inside code are not seen.
// A run of n backticks opens a span closed by the next run of exactly n;
// a backslash outside code escapes one backtick.
func maskCodeSpans(s []byte) {
	type run struct{ start, end int }
	var runs []run
	byLen := make(map[int][]int) // run length -> indices into runs, ascending
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		byLen[j-i] = append(byLen[j-i], len(runs))
		runs = append(runs, run{i, j})
		i = j
	}
	if len(runs) < 2 {
		return
	}
	r := 0
	for pos := 0; pos < len(s); {
		c := s[pos]
		if c == '\\' && pos+1 < len(s) {
			pos += 2
			continue
		}
		if c != '`' {
			pos++
			continue
		}
		for r < len(runs) && runs[r].end <= pos {
			r++
		}
		if r >= len(runs) {
			return
		}
		n := runs[r].end - pos
		cands := byLen[n]
		k := sort.SearchInts(cands, r+1)
		if k == len(cands) {
			pos = runs[r].end // no closer: the backticks are literal
			continue
		}
		end := runs[cands[k]].end
		for i := pos; i < end; i++ {
			if s[i] != '\n' {
				s[i] = ' '
			}
		}
		pos = end
	}
}

// lineAt returns the 1-based line of byte offset off in an element that
// starts at line first.
func lineAt(lineStarts []int, first, off int) int {
	return first + sort.SearchInts(lineStarts, off+1) - 1
}

// scanRefs returns the footnote references "[^label]" in masked text.
func scanRefs(s []byte, lineStarts []int, first int) []Ref {
	var refs []Ref
	for i := 0; i+1 < len(s); i++ {
		switch {
		case s[i] == '\\':
			i++
		case s[i] == '[' && s[i+1] == '^':
			j := i + 2
			for j < len(s) && !isSpaceByte(s[j]) && s[j] != '[' && s[j] != ']' {
				j++
			}
			if j < len(s) && s[j] == ']' && j > i+2 {
				refs = append(refs, Ref{Label: string(s[i+2 : j]), Line: lineAt(lineStarts, first, i)})
				i = j
			}
		}
	}
	return refs
}

// bracket is an unescaped '[' at open and its matching ']' at close, or -1.
type bracket struct{ open, close int }

// matchBrackets lists each unescaped '[' of s, in order, with its matching
// ']'. Only the brackets are kept, not a slot per byte: a hit's topic file
// is parsed on every one-shot recall, and the per-byte table was a fifth
// of the parse.
func matchBrackets(s []byte) []bracket {
	var pairs []bracket
	var stack []int // indexes into pairs
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped byte is no bracket
		case '[':
			stack = append(stack, len(pairs))
			pairs = append(pairs, bracket{open: i, close: -1})
		case ']':
			if n := len(stack); n > 0 {
				pairs[stack[n-1]].close = i
				stack = stack[:n-1]
			}
		}
	}
	return pairs
}

// closingAt is the ']' matching the unescaped '[' at i, or -1; *k is a
// cursor into pairs, which the callers ask in increasing i.
func closingAt(pairs []bracket, k *int, i int) int {
	for *k < len(pairs) && pairs[*k].open < i {
		*k++
	}
	if *k < len(pairs) && pairs[*k].open == i {
		return pairs[*k].close
	}
	return -1
}

// scanLinks returns the relative links in masked text and problems for
// malformed ones. raw is the unmasked text, for the link text.
func scanLinks(s, raw []byte, lineStarts []int, first int) ([]Link, []Problem) {
	var links []Link
	var problems []Problem
	pairs, k := matchBrackets(s), 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] != '[' {
			continue
		}
		closing := closingAt(pairs, &k, i)
		if closing < 0 {
			continue
		}
		start := i
		if closing+1 >= len(s) || s[closing+1] != '(' {
			if s[start+1] == '^' {
				i = closing // a footnote reference, not link text
			}
			continue
		}
		line := lineAt(lineStarts, first, start)
		dest, end, ok := parseDestination(s, closing+2)
		if !ok {
			// Complain only when the text was clearly meant as a topic link.
			if t := attemptedTarget(s, closing+2); strings.Contains(t, "#^") || strings.Contains(t, ".md") {
				problems = append(problems, Problem{Line: line, Code: CodeBadLink,
					Message: fmt.Sprintf("unterminated link %q", clip(string(raw[start:closing+2])+t))})
			}
			continue
		}
		i = end - 1 // links do not nest: skip the text and destination
		if start > 0 && s[start-1] == '!' || dest == "" || isExternal(dest) {
			continue
		}
		l, msg := classifyLink(string(raw[start+1:closing]), dest)
		if msg != "" {
			problems = append(problems, Problem{Line: line, Code: CodeBadLink, Message: msg})
			continue
		}
		if l.Path == "" && l.Anchor == "" {
			continue // "#" alone points nowhere in particular
		}
		l.Line = line
		links = append(links, l)
	}
	return links, problems
}

// parseDestination parses a link destination and optional title starting at
// s[i] (just after '(') and returns the destination and the offset after ')'.
func parseDestination(s []byte, i int) (string, int, bool) {
	limit := min(len(s), i+maxDestination)
	i = skipSpace(s, i, limit)
	var dest string
	if i < limit && s[i] == '<' {
		j := i + 1
		for j < limit && s[j] != '>' && s[j] != '\n' && s[j] != '<' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= limit || s[j] != '>' {
			return "", 0, false
		}
		dest, i = string(s[i+1:j]), j+1
	} else {
		j, depth := i, 0
	loop:
		for ; j < limit; j++ {
			switch c := s[j]; {
			case c == '\\':
				j++
			case c == '(':
				depth++
				if depth > maxParenDepth {
					return "", 0, false
				}
			case c == ')':
				if depth == 0 {
					break loop
				}
				depth--
			case c <= ' ' || c == 0x7f:
				break loop
			}
		}
		if j > limit {
			j = limit
		}
		dest, i = string(s[i:j]), j
	}
	i = skipSpace(s, i, limit)
	if i < limit && (s[i] == '"' || s[i] == '\'' || s[i] == '(') {
		closer := s[i]
		if closer == '(' {
			closer = ')'
		}
		j := i + 1
		for j < limit && s[j] != closer {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		if j >= limit {
			return "", 0, false
		}
		i = skipSpace(s, j+1, limit)
	}
	if i >= limit || s[i] != ')' {
		return "", 0, false
	}
	return dest, i + 1, true
}

// classifyLink splits a relative destination into path and anchor and says
// what is wrong with it, if anything.
func classifyLink(text, dest string) (Link, string) {
	l := Link{Text: text, Target: dest}
	rawPath := dest
	if h := strings.IndexByte(dest, '#'); h >= 0 {
		rawPath, l.Anchor = dest[:h], dest[h+1:]
	}
	path, err := url.PathUnescape(rawPath)
	if err != nil {
		return l, fmt.Sprintf("link %q has a bad %%-escape", dest)
	}
	l.Path = path
	if strings.HasPrefix(path, "/") {
		return l, fmt.Sprintf("link %q must be relative to the topic file", dest)
	}
	if strings.HasPrefix(l.Anchor, "^") {
		id := l.Anchor[1:]
		if !IsBlockID(id) {
			return l, fmt.Sprintf("link %q: %q is not a block id (8 lowercase hex digits)", dest, id)
		}
		if path != "" && !strings.HasSuffix(path, ".md") {
			return l, fmt.Sprintf("block link %q must point to a .md file", dest)
		}
		l.BlockID = id
	}
	return l, ""
}

// isExternal reports whether dest has a URL scheme or is protocol-relative.
func isExternal(dest string) bool {
	if strings.HasPrefix(dest, "//") {
		return true
	}
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'):
		case c == ':' && i > 0:
			return true
		default:
			return false
		}
	}
	return false
}

func skipSpace(s []byte, i, limit int) int {
	for i < limit && isSpaceByte(s[i]) {
		i++
	}
	return i
}

// attemptedTarget returns what looks like the destination of a link that
// failed to parse: up to the first space, ')' or newline, at most 256 bytes.
func attemptedTarget(s []byte, i int) string {
	j := i
	for j < len(s) && j < i+256 && !isSpaceByte(s[j]) && s[j] != ')' {
		j++
	}
	return string(s[i:j])
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
