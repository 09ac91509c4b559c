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
