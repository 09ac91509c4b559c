package distill

import (
	"regexp"
	"testing"

	"scriptorium/lazyre"
)

// TestLazyPatterns: every pattern registered on first use compiles (the
// distiller's among them), and none was compiled by loading the package.
func TestLazyPatterns(t *testing.T) {
	all := lazyre.All()
	if len(all) < 40 {
		t.Fatalf("%d lazy patterns registered, want the distiller's (≥ 40)", len(all))
	}
	for _, l := range all {
		if _, err := regexp.Compile(l.String()); err != nil {
			t.Errorf("pattern %q: %v", l.String(), err)
		}
	}
}
