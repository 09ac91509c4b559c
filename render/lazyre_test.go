package render

import (
	"testing"

	"scriptorium/lazyre"
)

// Every pattern compiled on first use compiles: a bad one fails here, not
// in the first call that reaches it.
func TestLazyPatterns_Compile(t *testing.T) {
	all := lazyre.All()
	if len(all) == 0 {
		t.Fatal("no lazy patterns linked")
	}
	for _, r := range all {
		if r.Regexp() == nil {
			t.Fatalf("%q did not compile", r)
		}
	}
}
