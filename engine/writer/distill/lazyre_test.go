package distill

import (
	"regexp"
	"testing"
)

// TestLazyPatterns: every pattern the distiller compiles on first use
// compiles, and none was compiled by loading the package.
func TestLazyPatterns(t *testing.T) {
	if len(lazyPatterns) < 40 {
		t.Fatalf("%d lazy patterns registered, want the distiller's (≥ 40)", len(lazyPatterns))
	}
	for _, l := range lazyPatterns {
		if _, err := regexp.Compile(l.pattern); err != nil {
			t.Errorf("pattern %q: %v", l.pattern, err)
		}
	}
}
