package deps

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"scriptorium/workspace/topic"
)

// manyCitations is a nested topic file of n blocks citing three archives
// over and over, with links, as a writer's journal file does.
func manyCitations(n int) []byte {
	var b strings.Builder
	b.WriteString("# J\n\n")
	for i := range n {
		fmt.Fprintf(&b, "Fact %d, see [x](../b.md).[^e-%010d] ^%08x\n\n", i, i, i+1)
	}
	for i := range n {
		fmt.Fprintf(&b, "[^e-%010d]: Time: `2024-05-27`; Sources: [p/t/m%d](../../../sources/p/_v2/t%d.md#source-%08x)\n", i, i, i%3, i)
	}
	return []byte(b.String())
}

// TestOfTopic_ResolvesAsEachCitation: every key and target is the
// citation's or link's own path resolved against the file's.
func TestOfTopic_ResolvesAsEachCitation(t *testing.T) {
	const path = "topics/journal/2024/08.md"
	f, _ := topic.Parse(manyCitations(30))
	d := OfTopic(path, f, f.Definitions())
	targets := map[string]bool{}
	for i, b := range f.Blocks() {
		var keys []string
		for _, r := range b.Refs {
			for _, c := range f.Definitions()[r.Label].Sources {
				keys = append(keys, topic.ResolvePath(path, c.Path)+"#"+c.Anchor)
				targets[topic.ResolvePath(path, c.Path)] = true
			}
		}
		for _, l := range b.Links {
			targets[topic.ResolvePath(path, l.Path)] = true
		}
		if !slices.Equal(d.Blocks[i].Keys, keys) {
			t.Fatalf("block %d keys %v, want %v", i, d.Blocks[i].Keys, keys)
		}
	}
	if want := SortedKeys(targets); !slices.Equal(d.Targets, want) || len(want) != 4 {
		t.Errorf("targets %v, want %v", d.Targets, want)
	}
}

func BenchmarkOfTopic(b *testing.B) {
	f, _ := topic.Parse(manyCitations(200))
	defs := f.Definitions()
	for b.Loop() {
		OfTopic("topics/journal/2024/08.md", f, defs)
	}
}
