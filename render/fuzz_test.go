package render

import (
	"slices"
	"testing"
)

// FuzzCore checks, on arbitrary block and footnote text, that Core always
// reports the exact token count of its output, stays within budget, and
// decides exactly as counting every candidate in full would.
func FuzzCore(f *testing.F) {
	f.Add("Ada prefers tea. ^aaaaaaaa", "[^e-1]: Time: `2024-01-01`; Sources: [s](../sources/a.md#source-1)", "/b ^bbbbbbbb", 40)
	f.Add("ends with space ", "x)", "\r\nCRLF", 12)
	f.Add("日本語。", "🎉", "'s", 3)
	f.Fuzz(func(t *testing.T, a, note, b string, budget int) {
		budget %= 400
		topic := Topic{Path: CoreTopicPath, Blocks: []Block{
			{ID: "aaaaaaaa", Raw: a, Trusted: true, Footnotes: []Footnote{{Label: "e-1", Raw: note}}},
			{ID: "bbbbbbbb", Raw: b, Trusted: true, Footnotes: []Footnote{{Label: "e-2", Raw: note + a}}},
			{ID: "cccccccc", Raw: a + b, Trusted: false},
			{ID: "dddddddd", Raw: b + note, Trusted: true, Footnotes: []Footnote{{Label: "e-1", Raw: note}}},
		}}
		out, rep := Core(topic, budget)
		if rep.Tokens != CountTokens(string(out)) {
			t.Fatalf("tokens %d, output counts %d", rep.Tokens, CountTokens(string(out)))
		}
		if rep.Tokens > max(budget, 0) {
			t.Fatalf("tokens %d over budget %d", rep.Tokens, budget)
		}
		want, wantRep, _ := coreRender(topic.Blocks, prepared(topic), budget, exactTokens)
		if string(out) != want || !slices.Equal(rep.Included, wantRep.Included) {
			t.Fatalf("differs from full counting: %q want %q", out, want)
		}
		if _, _, agree := coreRender(topic.Blocks, prepared(topic), budget, segCounts{}.docTokens); !agree {
			t.Fatalf("segment sums disagreed with full counts")
		}
	})
}
