package distill

import (
	"testing"

	"scriptorium/lazyre"
)

// Every pattern compiles on first use, the distiller's (≥ 40) among them.
func TestLazyPatterns(t *testing.T) {
	if n, err := lazyre.CompileAll(); err != nil || n < 40 {
		t.Fatalf("%d lazy patterns compiled (want at least 40): %v", n, err)
	}
}
