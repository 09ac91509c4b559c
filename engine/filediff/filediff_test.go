package filediff

import (
	"strings"
	"testing"
)

// TestUnified_NamesEachSide: a created or deleted file's missing side is
// /dev/null; an edit names a/ and b/ and shows the changed line.
func TestUnified_NamesEachSide(t *testing.T) {
	for _, tc := range []struct {
		old, new []byte
		want     []string
	}{
		{nil, []byte("x\n"), []string{"--- /dev/null", "+++ b/topics/a.md", "+x"}},
		{[]byte("x\n"), nil, []string{"--- a/topics/a.md", "+++ /dev/null", "-x"}},
		{[]byte("x\ny\n"), []byte("x\nz\n"), []string{"--- a/topics/a.md", "+++ b/topics/a.md", "-y", "+z"}},
	} {
		got := Unified("topics/a.md", tc.old, tc.new)
		for _, w := range tc.want {
			if !strings.Contains(got, w+"\n") {
				t.Errorf("Unified(%q, %q) = %q, missing %q", tc.old, tc.new, got, w)
			}
		}
	}
}
