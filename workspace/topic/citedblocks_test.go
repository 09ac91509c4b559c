package topic

import (
	"reflect"
	"testing"
)

func TestCitedBlocks_Cases(t *testing.T) {
	taken := map[string]bool{"0000000b": true}
	text := "# Me\r\n\r\nI like tea. ^0000000a\n\n\n\nSee [x](y.md) today. ^0000000b\n\n   \n\n## Two\nlines"
	got := CitedBlocks(text, "e-1", "seed", taken)
	// Paragraphs are numbered as split on blank lines, empty ones too.
	see := UniqueBlockID("seed:3", func(id string) bool { return id == "0000000a" || id == "0000000b" })
	two := UniqueBlockID("seed:5", func(id string) bool { return id == "0000000a" || id == "0000000b" || id == see })
	want := []string{
		"# Me",                                // a one-line heading stays
		"I like tea.[^e-1] ^0000000a",         // its own id, free
		"See [x] (y.md) today.[^e-1] ^" + see, // its id taken: a new one; the link defused
		"## Two lines[^e-1] ^" + two,          // a heading of two lines is a paragraph
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("blocks %q, want %q", got, want)
	}
	if !taken["0000000a"] || !taken[see] || !taken[two] {
		t.Errorf("taken %v: the ids given are not marked", taken)
	}
	if got := CitedBlocks("\n\n", "e-1", "seed", map[string]bool{}); got != nil {
		t.Errorf("blank text gives blocks %q", got)
	}
}
