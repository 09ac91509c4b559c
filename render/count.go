package render

import (
	"unicode"
	"unicode/utf8"
)

// Counting a candidate core render from scratch for every block costs
// O(blocks × tokens). o200k_base first splits text with a regular
// expression and then encodes each piece on its own, so a document made of
// segments joined by newline runs costs the sum of its segments' costs
// whenever no piece spans a join. segCounts caches those per-segment costs.
//
// A piece spans a join only through whitespace or through the "[\r\n/]*"
// tail the pattern allows after punctuation. So a join is clean when the
// segment before it ends with a visible, non-space rune and the segment
// after it starts with one that is not "/": the newline run then forms its
// own piece (or closes the punctuation piece before it) and the next
// segment starts a fresh piece, exactly as when it is counted alone. Core
// still counts its final output in full, checks that against the sum, and
// falls back to counting every candidate in full if they ever differ.

// segKey identifies a segment followed by a newline run of the given length.
type segKey struct {
	s       string
	newline int
}

// segCounts caches token counts of segments followed by newline runs.
type segCounts map[segKey]int

// count returns the tokens of s followed by n newlines.
func (c segCounts) count(s string, n int) int {
	k := segKey{s, n}
	if v, ok := c[k]; ok {
		return v
	}
	v := CountTokens(s + "\n\n"[:n])
	c[k] = v
	return v
}

// sum returns the tokens of segs joined by blank lines and ended by one
// newline, and false when a join is not clean and the sum may be wrong.
func (c segCounts) sum(segs []string) (int, bool) {
	total := 0
	for i, s := range segs {
		if i+1 < len(segs) {
			if !cleanJoin(s, segs[i+1]) {
				return 0, false
			}
			total += c.count(s, 2)
			continue
		}
		if !cleanJoin(s, "") {
			return 0, false
		}
		total += c.count(s, 1)
	}
	return total, true
}

// cleanJoin reports whether a newline run between a and b (b empty: the end
// of the text) is certain to form token boundaries on both sides.
func cleanJoin(a, b string) bool {
	last, _ := utf8.DecodeLastRuneInString(a)
	if a == "" || !visible(last) {
		return false
	}
	if b == "" {
		return true
	}
	first, _ := utf8.DecodeRuneInString(b)
	return visible(first) && first != '/'
}

// visible reports whether r is a graphic rune that no whitespace class in
// the o200k_base pattern can match.
func visible(r rune) bool {
	return r != utf8.RuneError && unicode.IsGraphic(r) && !unicode.IsSpace(r) && !unicode.Is(unicode.Z, r)
}

// docTokens counts a core document from cached segment counts when every
// join is clean, and in full otherwise.
func (c segCounts) docTokens(d *coreDoc) int {
	if n, ok := c.sum(d.segments()); ok {
		return n
	}
	return CountTokens(d.String())
}
