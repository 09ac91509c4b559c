package engine

import (
	"testing"
	"unsafe"
)

// TestSourceEntry_Lean keeps a snapshot's per-record entry small: a 1M
// snapshot holds a million of them (issue 26). Its view is built on
// demand (engine/sourceview), never stored: an entry holding its
// result.SourceView was 280 bytes.
func TestSourceEntry_Lean(t *testing.T) {
	if n := unsafe.Sizeof(sourceEntry{}); n > 64 {
		t.Fatalf("sourceEntry is %d bytes, want ≤ 64", n)
	}
}
