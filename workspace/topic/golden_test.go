package topic

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestParse_Golden compares the parse of each fixture in testdata/topics
// with testdata/TestParse_Golden/<name>.golden (regenerate with -update and
// review the diff). For canonical fixtures the golden file holds the elements
// and problems; for broken ones only the problems.
func TestParse_Golden(t *testing.T) {
	tests := []struct {
		name         string
		problemsOnly bool
	}{
		{"canonical", false},
		{"broken", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "topics", tt.name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			f, ps := Parse(data)
			if ps == nil {
				ps = []Problem{}
			}
			var v any = struct {
				Elements []Element `json:"elements"`
				Problems []Problem `json:"problems"`
			}{f.Elements, ps}
			if tt.problemsOnly {
				v = ps
			}
			out, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.RequireEqual(t, append(out, '\n'))
		})
	}
}

// TestRender_RoundTripCanonical checks that every canonical fixture parses
// without a single problem and renders back byte for byte.
func TestRender_RoundTripCanonical(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "topics", "canonical*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no canonical fixtures: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f, ps := Parse(data)
			if len(ps) != 0 {
				t.Errorf("canonical fixture has problems: %v", ps)
			}
			if got := f.Render(); !bytes.Equal(got, data) {
				t.Errorf("Render differs from input:\n got %q\nwant %q", got, data)
			}
		})
	}
}

// TestRender_Canonicalises checks that non-canonical input renders to a form
// that parses to the same elements and renders to itself.
func TestRender_Canonicalises(t *testing.T) {
	broken, err := os.ReadFile(filepath.Join("testdata", "topics", "broken.md"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   string
	}{
		{"broken fixture", string(broken)},
		{"crlf", "# T\r\n\r\n\r\nA ^f888f60e\r\n"},
		{"glued", "# T\nA ^f888f60e\n[^e-1175dea39c]: x\n## U"},
		{"blank lines in fence", "\n\n```\n\n\n```\n^f888f60e\n\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f1, _ := Parse([]byte(tt.in))
			r1 := f1.Render()
			f2, _ := Parse(r1)
			if r2 := f2.Render(); !bytes.Equal(r1, r2) {
				t.Errorf("Render not idempotent:\n%q\n%q", r1, r2)
			}
			if d := sameElements(f1, f2); d != "" {
				t.Errorf("elements changed: %s", d)
			}
		})
	}
}

// sameElements returns "" when two parses agree on everything but line
// numbers, else a description of the first difference.
func sameElements(a, b *File) string {
	if len(a.Elements) != len(b.Elements) {
		return "element counts differ"
	}
	for i := range a.Elements {
		x, y := a.Elements[i], b.Elements[i]
		if x.Kind != y.Kind || x.Raw != y.Raw || x.BlockID != y.BlockID || x.Label != y.Label ||
			x.Level != y.Level || x.Heading != y.Heading || !reflect.DeepEqual(x.Def, y.Def) {
			return "element " + x.Raw + " differs"
		}
		if !reflect.DeepEqual(refLabels(x.Refs), refLabels(y.Refs)) {
			return "refs of " + x.Raw + " differ"
		}
		if !reflect.DeepEqual(linkTargets(x.Links), linkTargets(y.Links)) {
			return "links of " + x.Raw + " differ"
		}
	}
	return ""
}

func refLabels(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Label)
	}
	return out
}

func linkTargets(links []Link) []Link {
	var out []Link
	for _, l := range links {
		l.Line = 0
		out = append(out, l)
	}
	return out
}
