package index

import (
	"sort"
	"unicode"
	"unicode/utf8"
)

// DefaultSnippetRunes is the snippet length MakeSnippet uses when asked for
// zero or fewer runes.
const DefaultSnippetRunes = 200

// snippetMaxMatches bounds the window search on huge texts full of matches.
const snippetMaxMatches = 512

// softCut is how far (in runes) MakeSnippet moves a cut to land on white
// space instead of inside a word.
const softCut = 15

// MakeSnippet returns an excerpt of text of at most maxRunes runes centred on
// the query's terms, and whether it is the whole text. The index stores no
// text, so the engine calls this on the text it fetched for a hit.
//
// The excerpt is a byte-exact substring of text (no ellipses are added, no
// white space is changed): complete is true exactly when it equals text.
// The window chosen holds the most distinct query terms, the earliest on a
// tie, with a little context before the first match; cuts move to nearby
// white space when there is some (CJK text has none and is cut anywhere).
func MakeSnippet(text, queryText string, maxRunes int) (snippet string, complete bool) {
	if maxRunes <= 0 {
		maxRunes = DefaultSnippetRunes
	}
	n := utf8.RuneCountInString(text)
	if n <= maxRunes {
		return text, true
	}
	// starts[i] is the byte offset of rune i; starts[n] == len(text).
	starts := make([]int, 0, n+1)
	for i := range text {
		starts = append(starts, i)
	}
	starts = append(starts, len(text))
	runeAt := func(b int) int { return sort.SearchInts(starts, b) }

	lo, first := bestWindow(text, queryText, maxRunes, n, runeAt)
	hi := lo + maxRunes
	runeOf := func(i int) rune {
		r, _ := utf8.DecodeRuneInString(text[starts[i]:])
		return r
	}
	if lo > 0 {
		// Start after the first white space in the first few runes, never
		// past the first match.
		for i := lo; i < lo+softCut && i < first; i++ {
			if unicode.IsSpace(runeOf(i)) {
				lo = i + 1
				break
			}
		}
	}
	if hi < n {
		// End before the last white space in the last few runes.
		for i := hi; i > hi-softCut && i > lo; i-- {
			if unicode.IsSpace(runeOf(i)) {
				hi = i
				break
			}
		}
	}
	return text[starts[lo]:starts[hi]], false
}

// bestWindow returns the first rune of the maxRunes-wide window that holds
// the most distinct query terms, and the first rune of the first match in
// it (the window's end when nothing matches).
func bestWindow(text, queryText string, maxRunes, n int, runeAt func(int) int) (lo, first int) {
	terms, err := queryTerms(queryText)
	if err != nil || len(terms) == 0 {
		return 0, maxRunes
	}
	want := make(map[string]bool, len(terms))
	for _, t := range terms {
		want[t] = true
	}
	toks, err := analyze(text)
	if err != nil {
		return 0, maxRunes
	}
	type match struct {
		lo, hi int // rune range
		term   string
	}
	var ms []match
	for _, t := range toks {
		if want[string(t.Term)] {
			ms = append(ms, match{runeAt(t.Start), runeAt(t.End), string(t.Term)})
			if len(ms) == snippetMaxMatches {
				break
			}
		}
	}
	best, bestFirst, bestCount := 0, maxRunes, 0
	lead := maxRunes / 5
	for _, m := range ms {
		lo := max(0, m.lo-lead)
		if lo+maxRunes > n {
			lo = n - maxRunes
		}
		seen := map[string]bool{}
		first := lo + maxRunes
		for _, o := range ms {
			if o.lo >= lo && o.hi <= lo+maxRunes {
				seen[o.term] = true
				first = min(first, o.lo)
			}
		}
		if len(seen) > bestCount {
			best, bestFirst, bestCount = lo, first, len(seen)
		}
	}
	return best, bestFirst
}
