package index

import (
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/vellum/levenshtein"
)

// TestLevenshteinBuilder_Lazy: the vellum the build links is the copy in
// third_party/vellum, whose Levenshtein builder computes its automaton on
// first use — bleve's scorch makes two at package init, in every process
// (1 MB, ~26,000 allocations; the prompt hook paid them on every prompt).
// It fails on the upstream module, which builds them at once.
func TestLevenshteinBuilder_Lazy(t *testing.T) {
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := levenshtein.NewLevenshteinAutomatonBuilder(2, true); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Fatalf("making a distance-2 builder took %.0f allocations: the automaton is built eagerly (is go.mod's replace of vellum gone?)", allocs)
	}
}

// TestLevenshteinBuilder_FuzzyStillWorks: the deferred automaton still
// answers: a fuzzy query through bleve and scorch (which use the two
// builders made at init) finds a term one and two edits away, and not three.
func TestLevenshteinBuilder_FuzzyStillWorks(t *testing.T) {
	ix, err := bleve.New(t.TempDir()+"/fz", bleve.NewIndexMapping())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Index("a", map[string]string{"body": "the kafka logs rotate nightly"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		term  string
		fuzz  int
		found bool
	}{{"kafkq", 1, true}, {"kofkq", 2, true}, {"kofkqq", 2, false}, {"kafka", 0, true}} {
		q := bleve.NewFuzzyQuery(c.term)
		q.SetFuzziness(c.fuzz)
		q.SetField("body")
		res, err := ix.Search(bleve.NewSearchRequest(q))
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Total == 1; got != c.found {
			t.Errorf("fuzzy %q at distance %d: %d hits, want found=%v", c.term, c.fuzz, res.Total, c.found)
		}
	}
}
