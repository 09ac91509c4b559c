package topic

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlocks_OneAllocation: Blocks sizes its result once. Grown by
// append, copying the large elements was most of its cost, and every
// install calls it per topic file several times (issue 26).
func TestBlocks_OneAllocation(t *testing.T) {
	var b strings.Builder
	b.WriteString("# T\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Fact %d. ^%08x\n\n", i, i+1)
	}
	f, probs := Parse([]byte(b.String()))
	if len(probs) > 0 || len(f.Blocks()) != 40 {
		t.Fatalf("fixture: %d blocks, problems %v", len(f.Blocks()), probs)
	}
	if n := testing.AllocsPerRun(20, func() { _ = f.Blocks() }); n != 1 {
		t.Errorf("Blocks allocates %v times, want 1", n)
	}
	if empty, _ := Parse([]byte("# T\n")); empty.Blocks() != nil {
		t.Errorf("a file without blocks returns %v, want nil", empty.Blocks())
	}
}
