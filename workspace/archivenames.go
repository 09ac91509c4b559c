package workspace

import (
	"os"
	"path/filepath"
	"strings"

	"scriptorium/workspace/archive"
)

// ArchiveNames reads the provider and thread names already under the
// sources/ of the workspace at root (v2 and legacy archives), which a new
// batch's names must not collide with (archive.Batch).
func ArchiveNames(root string) archive.Names {
	n := archive.NewNames()
	dir := filepath.Join(root, SourcesDir)
	providers, _ := os.ReadDir(dir)
	for _, p := range providers {
		if !p.IsDir() {
			continue
		}
		n.AddProvider(p.Name())
		for _, d := range []string{filepath.Join(dir, p.Name()), filepath.Join(dir, p.Name(), "_v2")} {
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
