package archive

import (
	"strings"
	"testing"
)

// splitPathParts is PathParts as it was written first, with strings.Split:
// the reference the allocation-free reading must agree with.
func splitPathParts(p string) (provider, thread string, v2, ok bool) {
	parts := strings.Split(strings.TrimSuffix(p, ".md"), "/")
	switch {
	case len(parts) == 4 && parts[0] == "sources" && parts[2] == "_v2":
		return parts[1], parts[3], true, true
	case len(parts) == 3 && parts[0] == "sources":
		return parts[1], parts[2], false, true
	}
	return "", "", false, false
}

// TestPathParts_AsSplit: every path of up to five segments drawn from the
// pieces that matter (empty ones, "sources", "_v2", ".md" in and out of
// place) reads as strings.Split read it.
func TestPathParts_AsSplit(t *testing.T) {
	pieces := []string{"", "sources", "_v2", "t", "t.md", ".md", "sources.md", "_v2.md"}
	var paths []string
	var grow func(p string, n int)
	grow = func(p string, n int) {
		paths = append(paths, p, p+".md")
		if n == 0 {
			return
		}
		for _, s := range pieces {
			if p == "" {
				grow(s, n-1)
			} else {
				grow(p+"/"+s, n-1)
			}
		}
	}
	grow("", 5)
	for _, p := range paths {
		a, b, c, d := PathParts(p)
		e, f, g, h := splitPathParts(p)
		if a != e || b != f || c != g || d != h {
			t.Fatalf("PathParts(%q) = %q %q %v %v, Split's reading %q %q %v %v", p, a, b, c, d, e, f, g, h)
		}
	}
	if len(paths) < 10000 {
		t.Fatalf("only %d paths", len(paths))
	}
}
