package recall

import (
	"slices"
	"testing"

	"scriptorium/engine/result"
)

func blockHit(id, heading string) Hit {
	return Hit{SearchResult: result.SearchResult{Kind: "topic", Ref: id}, Block: &Block{ID: id, Heading: heading, Level: 2}}
}

func refs(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Ref)
	}
	return out
}

// TestHeadingFirst: the blocks under a heading the prompt names come
// first, in rank order; the rest keep theirs.
func TestHeadingFirst(t *testing.T) {
	hits := []Hit{
		blockHit("a", "Family"),
		{SearchResult: result.SearchResult{Kind: "source", Ref: "s1"}},
		blockHit("b", "Work"),
		blockHit("c", ""),
		blockHit("d", "Work"),
		blockHit("e", "Plans"),
		{SearchResult: result.SearchResult{Kind: "topic", Ref: "f"}, Block: &Block{ID: "f", Heading: "Nadia Haddad", Level: 1}},
	}
	for _, tc := range []struct {
		prompt string
		want   []string
	}{
		{"Where does Nadia work?", []string{"b", "d", "a", "s1", "c", "e", "f"}},
		{"Where is Nadia working now", []string{"b", "d", "a", "s1", "c", "e", "f"}},
		{"What has Nadia planned for June?", []string{"e", "a", "s1", "b", "c", "d", "f"}},
		{"Who is Nadia?", []string{"a", "s1", "b", "c", "d", "e", "f"}},
		{"", []string{"a", "s1", "b", "c", "d", "e", "f"}},
	} {
		if got := refs(headingFirst(hits, tc.prompt)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.prompt, got, tc.want)
		}
	}
}

// TestHeadingFirst_BestFew: only the best few blocks under the heading
// go first, so a small budget is not all one theme.
func TestHeadingFirst_BestFew(t *testing.T) {
	hits := []Hit{blockHit("a", "Family"), blockHit("w1", "Work"), blockHit("w2", "Work"), blockHit("w3", "Work"),
		blockHit("w4", "Work"), blockHit("b", "Family")}
	want := []string{"w1", "w2", "w3", "a", "w4", "b"}
	if got := refs(headingFirst(hits, "What was Tom working on?")); !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestStem: a heading and a question's word meet however each is
// inflected.
func TestStem(t *testing.T) {
	for w, want := range map[string]string{
		"work": "work", "works": "work", "worked": "work", "working": "work",
		"plans": "plan", "planned": "plan", "planning": "plan", "plan": "plan",
		"families": "family", "family": "family", "places": "place", "place": "place",
		"habits": "habit", "commands": "command", "is": "is",
	} {
		if got := stem(w); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}
