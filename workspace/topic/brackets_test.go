package topic

import (
	"math/rand/v2"
	"testing"
)

// denseBrackets is matchBrackets as first written: a slot per byte, each
// unescaped '[' holding its matching ']', every other slot -1.
func denseBrackets(s []byte) []int {
	match := make([]int, len(s))
	var stack []int
	for i := 0; i < len(s); i++ {
		match[i] = -1
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				match[i] = -1
			}
		case '[':
			stack = append(stack, i)
		case ']':
			if n := len(stack); n > 0 {
				match[stack[n-1]] = i
				stack = stack[:n-1]
			}
		}
	}
	return match
}

// TestMatchBrackets_AsDense: for 20,000 random texts of brackets,
// backslashes and other bytes, every '[' — asked in increasing order, as
// scanLinks asks, and with the skips scanLinks makes — closes where the
// per-byte table said.
func TestMatchBrackets_AsDense(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 26))
	alphabet := []byte(`[[]]\\(x^`)
	for n := 0; n < 20000; n++ {
		s := make([]byte, r.IntN(40))
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		want := denseBrackets(s)
		pairs, k := matchBrackets(s), 0
		for i := 0; i < len(s); i++ {
			if s[i] != '[' {
				continue
			}
			if got := closingAt(pairs, &k, i); got != want[i] {
				t.Fatalf("%q: '[' at %d closes at %d, the table says %d", s, i, got, want[i])
			}
			if want[i] > i && r.IntN(2) == 0 {
				i = want[i] // scanLinks jumps past a link or a footnote reference
			}
		}
	}
}
