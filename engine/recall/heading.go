package recall

import (
	"strings"
	"unicode"
)

// headingFirst puts the block hits filed under a heading the prompt's
// words name first, in rank order, then the other hits in rank order.
//
// The writer files a person's facts under themes ("## Work", "## Health",
// "## Plans" in topics/people/<person>.md), and "Where does Nadia work?"
// names the theme its answer is under. The person's name is in every block
// of their file, so search ranks twenty "Nadia …" blocks alike and the
// answer came 30th, after the budget was spent (BENCHMARKS.md, "Answer in
// context: where the misses were"); the heading tells them apart.
func headingFirst(hits []Hit, query string) []Hit {
	words := promptStems(query)
	if len(words) == 0 {
		return hits
	}
	named := func(h Hit) bool {
		// A file's title names all of it (a person's name): only a
		// heading under it names a part.
		if h.Block == nil || h.Block.Heading == "" || h.Block.Level < 2 {
			return false
		}
		for _, w := range stemsOf(h.Block.Heading) {
			if words[w] {
				return true
			}
		}
		return false
	}
	out := make([]Hit, 0, len(hits))
	moved := map[int]bool{}
	for i, h := range hits {
		if len(moved) < maxHeadingFirst && named(h) {
			out = append(out, h)
			moved[i] = true
		}
	}
	if len(moved) == 0 {
		return hits
	}
	for i, h := range hits {
		if !moved[i] {
			out = append(out, h)
		}
	}
	return out
}

// maxHeadingFirst is how many blocks under the named heading go first: a
// theme's best few, so a small budget is not all one theme ("What was Tom
// working on the week before he left?" asks for a time, not his job).
const maxHeadingFirst = 3

// promptStems are the stems of a prompt's words, as a set.
func promptStems(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range stemsOf(text) {
		out[w] = true
	}
	return out
}

// stemsOf are the stems of the words of text: lower case, a plural's or
// a verb's ending cut ("works", "worked", "working" are "work"; "plans"
// and "planned" are "plan"), so a heading and a question's word meet
// however each is inflected. Words under three letters are left out.
func stemsOf(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if s := stem(f); len(s) >= 3 {
			out = append(out, s)
		}
	}
	return out
}

// stem cuts one English ending: the light stemming a heading needs, not a
// search's.
func stem(w string) string {
	for _, suf := range []string{"ing", "ies", "ed", "s"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" {
				w += "y"
			}
			break
		}
	}
	// "planned", "planning": a doubled last consonant is one.
	if n := len(w); n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}
