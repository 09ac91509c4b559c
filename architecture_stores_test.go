package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// stateDBSQL matches a statement on one of state.db's tables.
var stateDBSQL = regexp.MustCompile(`(?i)\b(FROM|INTO|UPDATE|TABLE)\s+(IF\s+NOT\s+EXISTS\s+)?(history|passes|events|forgets|finishes|promotions|rejections)\b`)

// TestArchitecture_OneStateDBOwner: engine/records owns state.db's schema
// and queries; no other package writes SQL on its tables.
func TestArchitecture_OneStateDBOwner(t *testing.T) {
	found := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		slash := filepath.ToSlash(p)
		for i, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if !stateDBSQL.MatchString(code) {
				continue
			}
			found++
			if !strings.HasPrefix(slash, "engine/records/") {
				t.Errorf("%s:%d queries state.db (%s): ask engine/records for it", p, i+1, stateDBSQL.FindString(code))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 10 {
		t.Fatalf("found only %d state.db statements: the pattern no longer sees engine/records' queries", found)
	}
}

// literalLayoutAllowed are the files that still join ".scriptorium"
// themselves; they leave the list when their code moves. The list only
// shrinks (it is empty now: the search glue left engine/index.go).
var literalLayoutAllowed = map[string]bool{}

// TestArchitecture_OneLayout: workspace spells the .scriptorium/ layout
// (MetaPath, RuntimePath and the names beside them); no other package
// joins the literal.
func TestArchitecture_OneLayout(t *testing.T) {
	lit := regexp.MustCompile(`"\.scriptorium(/[^"]*)?"`)
	// A join that goes on from MetaDir with a literal ("runtime", "index")
	// spells the layout too, one name at a time.
	metaJoin := regexp.MustCompile(`\bMetaDir\s*,\s*"[^"]*"`)
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || p == "workspace") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || literalLayoutAllowed[filepath.ToSlash(p)] {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if lit.MatchString(code) {
				t.Errorf("%s:%d spells %s: ask workspace (MetaPath, RuntimePath, …) for the path", p, i+1, lit.FindString(code))
			}
			if metaJoin.MatchString(code) {
				t.Errorf("%s:%d joins %s: ask workspace (MetaPath, RuntimePath, …) for the path", p, i+1, metaJoin.FindString(code))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
