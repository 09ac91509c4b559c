package topic

import (
	"strings"
	"testing"
)

func TestMerge3(t *testing.T) {
	const base = "# T\n\nAlpha fact. ^aaaaaaa1\n\nBeta fact. ^aaaaaaa2\n\nGamma fact. ^aaaaaaa3\n"
	tests := []struct {
		name, ours, theirs string
		want               string // "" with conflicts set means a conflict
		conflicts          []string
	}{
		{"OursUnchangedGivesTheirsExactly", base, "# T\n\nAlpha fact. ^aaaaaaa1\n", "# T\n\nAlpha fact. ^aaaaaaa1\n", nil},
		{"DisjointEditsMerge",
			strings.Replace(base, "Gamma fact.", "Gamma fact, later.", 1),
			strings.Replace(base, "Alpha fact.", "Alpha fact, reverted.", 1),
			"# T\n\nAlpha fact, reverted. ^aaaaaaa1\n\nBeta fact. ^aaaaaaa2\n\nGamma fact, later. ^aaaaaaa3\n", nil},
		{"TheirsRemovesOursAdds",
			base + "\nDelta fact. ^aaaaaaa4\n",
			"# T\n\nAlpha fact. ^aaaaaaa1\n\nGamma fact. ^aaaaaaa3\n",
			"# T\n\nAlpha fact. ^aaaaaaa1\n\nGamma fact. ^aaaaaaa3\n\nDelta fact. ^aaaaaaa4\n", nil},
		{"TheirsAddsAfterItsPredecessor",
			strings.Replace(base, "Gamma fact.", "Gamma fact, later.", 1),
			strings.Replace(base, "Beta fact. ^aaaaaaa2\n", "Beta fact. ^aaaaaaa2\n\nNew fact. ^aaaaaaa9\n", 1),
			"# T\n\nAlpha fact. ^aaaaaaa1\n\nBeta fact. ^aaaaaaa2\n\nNew fact. ^aaaaaaa9\n\nGamma fact, later. ^aaaaaaa3\n", nil},
		{"SameBlockBothSidesConflicts",
			strings.Replace(base, "Beta fact.", "Beta fact, ours.", 1),
			strings.Replace(base, "Beta fact.", "Beta fact, theirs.", 1),
			"", []string{"^aaaaaaa2 (line 5)"}},
		{"RemovedByOursEditedByTheirsConflicts",
			"# T\n\nAlpha fact. ^aaaaaaa1\n\nGamma fact. ^aaaaaaa3\n",
			strings.Replace(base, "Beta fact.", "Beta fact, theirs.", 1),
			"", []string{"^aaaaaaa2"}},
		{"SameChangeBothSidesIsNoConflict",
			strings.Replace(base, "Beta fact.", "Beta fact, same.", 1),
			strings.Replace(base, "Beta fact.", "Beta fact, same.", 1),
			strings.Replace(base, "Beta fact.", "Beta fact, same.", 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, conflicts := Merge3([]byte(base), []byte(tt.ours), []byte(tt.theirs))
			var cs []string
			for _, c := range conflicts {
				cs = append(cs, c.String())
			}
			if strings.Join(cs, ",") != strings.Join(tt.conflicts, ",") {
				t.Fatalf("conflicts = %v, want %v", cs, tt.conflicts)
			}
			if tt.conflicts == nil && string(got) != tt.want {
				t.Errorf("merged =\n%s\nwant\n%s", got, tt.want)
			}
			if tt.conflicts != nil && got != nil {
				t.Errorf("a conflicting merge returned bytes:\n%s", got)
			}
		})
	}
}

func TestMerge3_MissingFiles(t *testing.T) {
	file := []byte("# T\n\nAlpha fact. ^aaaaaaa1\n")
	if got, cs := Merge3(file, file, nil); got != nil || cs != nil {
		t.Errorf("deleting an unchanged file = %q, %v; want nil, no conflict", got, cs)
	}
	if got, cs := Merge3(nil, nil, file); string(got) != string(file) || cs != nil {
		t.Errorf("recreating an absent file = %q, %v", got, cs)
	}
	edited := []byte("# T\n\nAlpha fact, edited. ^aaaaaaa1\n")
	if _, cs := Merge3(file, edited, nil); len(cs) != 1 || cs[0].Key != "^aaaaaaa1" {
		t.Errorf("deleting a file edited since = %v, want a conflict on ^aaaaaaa1", cs)
	}
	if _, cs := Merge3(nil, file, edited); len(cs) == 0 {
		t.Error("creating a file that exists since with other text merged silently")
	}
}
