package index

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fixtureQuery is one entry of testdata/search/<case>/queries.json. Want is
// the exact ranked list of refs; Error names an expected sentinel error.
type fixtureQuery struct {
	Name    string   `json:"name"`
	Text    string   `json:"text"`
	Speaker string   `json:"speaker"`
	Path    string   `json:"path"`
	Since   string   `json:"since"`
	Until   string   `json:"until"`
	Kinds   []string `json:"kinds"`
	Sort    string   `json:"sort"`
	Limit   int      `json:"limit"`
	Want    []string `json:"want"`
	Error   string   `json:"error"`
}

// TestSearch_Fixtures runs every case under testdata/search twice: once on
// an index built by Rebuild, once on one fed a document per Apply (many
// small segments). Both must return the expected refs, with equal scores.
func TestSearch_Fixtures(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "search", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no fixture cases")
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			docs := loadDocs(t, filepath.Join(dir, "docs.json"))
			b, err := os.ReadFile(filepath.Join(dir, "queries.json"))
			if err != nil {
				t.Fatal(err)
			}
			var qs []fixtureQuery
			if err := json.Unmarshal(b, &qs); err != nil {
				t.Fatalf("queries.json: %v", err)
			}
			if len(qs) == 0 {
				t.Fatal("no queries")
			}

			built := mustOpen(t)
			if err := built.Rebuild(docs); err != nil {
				t.Fatal(err)
			}
			applied := mustOpen(t)
			for _, d := range docs {
				if err := applied.Apply([]Doc{d}, nil); err != nil {
					t.Fatal(err)
				}
			}

			for _, fq := range qs {
				t.Run(fq.Name, func(t *testing.T) {
					q := Query{Text: fq.Text, Speaker: fq.Speaker, PathPrefix: fq.Path,
						Kinds: fq.Kinds, Sort: fq.Sort, Limit: fq.Limit}
					var err error
					if q.Since, err = ParseBound(fq.Since, false); err != nil {
						t.Fatal(err)
					}
					if q.Until, err = ParseBound(fq.Until, true); err != nil {
						t.Fatal(err)
					}
					h1, err1 := built.Search(q)
					h2, err2 := applied.Search(q)
					if got := errorName(err1); got != fq.Error {
						t.Fatalf("error = %q, want %q", got, fq.Error)
					}
					if got := errorName(err2); got != fq.Error {
						t.Fatalf("error (applied) = %q, want %q", got, fq.Error)
					}
					if fq.Error != "" {
						return
					}
					want := fq.Want
					if want == nil {
						want = []string{}
					}
					if got := refs(h1); !slices.Equal(got, want) {
						t.Errorf("refs = %q, want %q\nhits: %+v", got, want, h1)
					}
					if !slices.Equal(refs(h2), refs(h1)) {
						t.Errorf("applied refs = %q, rebuilt %q", refs(h2), refs(h1))
					}
					for i := range min(len(h1), len(h2)) {
						if h1[i].Score != h2[i].Score {
							t.Errorf("hit %d score: rebuilt %v, applied %v", i, h1[i].Score, h2[i].Score)
						}
					}
				})
			}
		})
	}
}
