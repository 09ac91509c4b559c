package topic

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzParseTopic checks that Parse never panics, that every line number is
// inside the input, and that Render is canonical: rendering again changes
// nothing and the rendered file parses to the same elements and problems
// (except missing_blank_line, which Render repairs).
func FuzzParseTopic(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "topics", "*.md"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		f1, p1 := Parse(data)
		lines := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		for _, e := range f1.Elements {
			if e.Line < 1 || e.Line > e.EndLine || e.EndLine > lines {
				t.Fatalf("element lines %d-%d outside 1-%d", e.Line, e.EndLine, lines)
			}
			if e.Kind == KindBlock && !IsBlockID(e.BlockID) {
				t.Fatalf("block with id %q", e.BlockID)
			}
			_ = BlockText(e)
		}
		for _, p := range p1 {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("problem %v outside lines 1-%d", p, lines)
			}
		}
		r1 := f1.Render()
		f2, p2 := Parse(r1)
		if d := sameElements(f1, f2); d != "" {
			t.Fatalf("re-parse of Render differs: %s\ninput %q\nrender %q", d, data, r1)
		}
		if a, b := codeCounts(p1), codeCounts(p2); !reflect.DeepEqual(a, b) {
			t.Fatalf("problems differ after Render: %v vs %v\ninput %q", a, b, data)
		}
		if r2 := f2.Render(); !bytes.Equal(r1, r2) {
			t.Fatalf("Render not idempotent: %q then %q", r1, r2)
		}
	})
}

func codeCounts(ps []Problem) map[string]int {
	m := make(map[string]int)
	for _, p := range ps {
		if p.Code != CodeMissingBlankLine {
			m[p.Code]++
		}
	}
	return m
}
