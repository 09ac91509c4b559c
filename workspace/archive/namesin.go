package archive

import (
	"os"
	"path/filepath"
	"strings"
)

// NamesIn reads the provider and thread names already under the sources/
// of the workspace at root (v2 and legacy archives), which a new
// batch's names must not collide with (Batch). It lives here, not in
// package workspace, so that workspace does not link this package: its
// case folding tables (golang.org/x/text) were a fifth of the small hook
// client's start (BENCHMARKS.md, round five of the resident prompt path).
func NamesIn(root string) Names {
	n := NewNames()
	sourcesDir := filepath.Join(root, "sources")
	providers, _ := os.ReadDir(sourcesDir)
	for _, p := range providers {
		if !p.IsDir() {
			continue
		}
		n.AddProvider(p.Name())
		for _, d := range []string{filepath.Join(sourcesDir, p.Name()), filepath.Join(sourcesDir, p.Name(), "_v2")} {
			threads, _ := os.ReadDir(d)
			for _, t := range threads {
				if !t.IsDir() && strings.HasSuffix(t.Name(), ".md") {
					n.AddThread(p.Name(), strings.TrimSuffix(t.Name(), ".md"))
				}
			}
		}
	}
	return n
}
