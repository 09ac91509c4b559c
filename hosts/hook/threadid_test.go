package hook

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// validThreadID is the pattern it replaced, on edge cases and random ids.
func TestValidThreadID_AsThePattern(t *testing.T) {
	re := regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$`)
	cases := []string{"", "a", "-a", "_a", "a-", "a_b-c", "019a3c5e-7b1f-7d2a-9e4f-0123456789ab", "a b", "a/b", "../x",
		"a\n", "é", strings.Repeat("a", 128), strings.Repeat("a", 129), "A" + strings.Repeat("-", 127), "a.b", "a\x00"}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aZ09_-./ \né"
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(140) {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		if got, want := validThreadID(c), re.MatchString(c); got != want {
			t.Fatalf("validThreadID(%q) = %v, the pattern says %v", c, got, want)
		}
	}
}
