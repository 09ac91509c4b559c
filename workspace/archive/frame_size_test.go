package archive

import (
	"testing"
	"unsafe"
)

// TestFrame_Packed: a 1M snapshot holds a million frames; the bools share
// one word (issue 26).
func TestFrame_Packed(t *testing.T) {
	if n := unsafe.Sizeof(Frame{}); n > 152 {
		t.Fatalf("Frame is %d bytes, want ≤ 152", n)
	}
}
