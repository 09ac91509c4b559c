package curate

import (
	"slices"
	"testing"

	"scriptorium/workspace/topic"
)

// FuzzShape checks what Edit builds from any text: either it says why the
// text is refused, or the bytes are exactly one block with the same id
// that still references every footnote of the old block.
func FuzzShape(f *testing.F) {
	const file = "# T\n\nOld text.[^e-0000000001] more[^e-0000000002] ^0000abcd\n\n" +
		"[^e-0000000001]: Time: `2024-03-15`; Sources: [a/b/c](../s.md#source-00000001)\n\n" +
		"[^e-0000000002]: Time: `2024-03-15`; Sources: [a/b/d](../s.md#source-00000002)\n"
	parsed, _ := topic.Parse([]byte(file))
	el, _ := parsed.Block("0000abcd")
	loc := located{path: "topics/t.md", data: []byte(file), file: parsed, el: el}
	for _, s := range []string{"New text.", "New.[^e-0000000002]", "a\n\nb", "# h\nx", "x ^12345678", "```\ncode\n```",
		"- a\n- b[^e-0000000001]", "[^e-0000000009] x", "x\n[^e-0000000001]: y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text = CleanText(text)
		if text == "" {
			return
		}
		raw, _, bad := shape(text, loc)
		if len(bad) > 0 {
			return
		}
		got, _ := topic.Parse([]byte(raw + "\n"))
		if len(got.Elements) != 1 || got.Elements[0].Kind != topic.KindBlock || got.Elements[0].BlockID != "0000abcd" {
			t.Fatalf("text %q built %q: not one block ^0000abcd", text, raw)
		}
		have := labels(got.Elements[0])
		for _, l := range labels(el) {
			if !slices.Contains(have, l) {
				t.Fatalf("text %q built %q: lost [^%s]", text, raw, l)
			}
		}
	})
}
