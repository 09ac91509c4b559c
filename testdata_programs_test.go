package main

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestTestdataPrograms_Build: Go's ./... skips testdata/, so the generators
// kept there (the long-chat set's, the distiller's) would rot unseen. Every
// folder under testdata/ that holds non-test Go files is vetted, which
// builds it.
func TestTestdataPrograms_Build(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	dirs := map[string]bool{}
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dirs["./"+filepath.ToSlash(filepath.Dir(p))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for d := range dirs {
		pkgs = append(pkgs, d)
	}
	sort.Strings(pkgs)
	if len(pkgs) < 2 {
		t.Fatalf("found %d Go programs under testdata/ (want the long-chat and distill generators): %v", len(pkgs), pkgs)
	}
	out, err := exec.Command("go", append([]string{"vet"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go vet %s: %v\n%s", strings.Join(pkgs, " "), err, out)
	}
	t.Logf("vetted %s", strings.Join(pkgs, " "))
}
