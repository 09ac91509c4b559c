package render

import (
	"testing"

	"scriptorium/lazyre"
)

// Every pattern this package compiles on first use compiles.
func TestLazyPatterns_Compile(t *testing.T) {
	if n, err := lazyre.CompileAll(); err != nil || n < 1 {
		t.Fatalf("%d lazy patterns compiled (want at least 1): %v", n, err)
	}
}
