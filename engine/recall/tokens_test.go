package recall

import (
	"math/rand/v2"
	"strings"
	"testing"

	"scriptorium/render"
)

// TestCountFenced: the sum of a fenced text's remembered line counts is
// the tokenizer's count of the whole, on recall texts and on lines made to
// end and begin in every way the pre-tokenization treats apart (symbols
// before a line break, spaces and tabs around it, "/" after it, blank
// lines, CR, letters, digits and CJK on either side).
func TestCountFenced(t *testing.T) {
	ends := []string{"", ".", "!)", " ", "  ", "\t", "...", "'s", "42", "中文", "://", "/", " -", "é"}
	starts := []string{"- [topics/core.md#^0000000a] 2026-01-02 ", "## Recalled for this prompt", "</memory-context>",
		"/usr/bin", " indented", "\tx", "-", "#", "<", "Zoe", "12345", "赵敏", "'s", "\r", ".", ""}
	words := []string{"bees", "moved", "to", "the", "garden", "copper-7", "2026-03-01", "—", "ü", "😀", "x/y", "a.b"}
	r := rand.New(rand.NewPCG(7, 26))
	line := func() string {
		var b strings.Builder
		b.WriteString(starts[r.IntN(len(starts))])
		for range r.IntN(6) {
			b.WriteString(" " + words[r.IntN(len(words))])
		}
		b.WriteString(ends[r.IntN(len(ends))])
		return b.String()
	}
	check := func(text string) {
		t.Helper()
		if got, want := countFenced(text), render.CountTokens(text); got != want {
			t.Fatalf("%q: %d tokens from its lines, %d whole", text, got, want)
		}
	}
	for range 3000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(line())
			b.WriteString(strings.Repeat("\n", 1+r.IntN(3)))
		}
		check(b.String())
		check(strings.TrimRight(b.String(), "\n"))
	}
	items := []Item{
		{Kind: "core", Text: "- [topics/core.md#^0000000a] 2026-01-02 The owner keeps bees."},
		{Kind: "core", Text: "- [topics/core.md#^0000000b] 赵敏在杭州负责半程马拉松。"},
		{Kind: "project", Text: "- [topics/projects/heron.md#^0000000c] The staging database moves to copper-7:"},
		{Kind: "hit", Text: "- [sources/telegram/_v2/s1.md#source-00000001] 2026-03-01 Zoe: /deploy at 23:00 ..."},
	}
	for i := range items {
		check(fence(items[:i+1]))
		check(fence(items[i:]))
	}
}
