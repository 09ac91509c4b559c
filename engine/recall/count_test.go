package recall

import (
	"fmt"
	"testing"

	"scriptorium/render"
)

// TestCountLine: a remembered count is the tokenizer's, and the memory of
// them stays bounded.
func TestCountLine(t *testing.T) {
	for i := 0; i < maxLineTokens+10; i++ {
		s := fmt.Sprintf("- [topics/core.md#^%08x] 2026-01-02 line %d of 中文 text", i, i*7)
		for range 2 {
			if got, want := countLine(s), render.CountTokens(s); got != want {
				t.Fatalf("%q: %d tokens, the tokenizer says %d", s, got, want)
			}
		}
	}
	if n := lineTokens.Len(); n > maxLineTokens {
		t.Errorf("%d counts remembered, bound %d", n, maxLineTokens)
	}
}
