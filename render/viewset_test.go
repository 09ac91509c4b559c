package render

import (
	"bytes"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomTopic draws a topic whose blocks share ids, dates, links and
// sources with the other topics often enough to exercise duplicate ids
// (first in path order wins), links to ids that come and go, shared
// sources, invalid dates and untrusted blocks.
func randomTopic(r *rand.Rand, path string) Topic {
	t := Topic{Path: path}
	id := func() string { return fmt.Sprintf("%08x", r.IntN(40)) }
	dates := []string{"2024-01-01", "2024-01-02", "2024-02-29", "2024-13-01", "", "2023-12-31", "2025-06-30"}
	texts := []string{"Plain text.", "A [link](x.md) and `code`.", "- one\n- two", "中文内容。", "<b>html</b> & \"quotes\"",
		"line\u2028sep", "a\tb\\c"}
	for range r.IntN(6) {
		b := Block{ID: id(), Text: texts[r.IntN(len(texts))], Trusted: r.IntN(5) > 0}
		if r.IntN(8) == 0 {
			b.ID = ""
		}
		if r.IntN(2) == 0 {
			b.Path = path
		}
		for range r.IntN(3) {
			f := Footnote{Label: fmt.Sprintf("e-%d", r.IntN(9)), Date: dates[r.IntN(len(dates))]}
			for range r.IntN(3) {
				src := fmt.Sprintf("p/t%d/m%d", r.IntN(3), r.IntN(6))
				if r.IntN(10) == 0 {
					src = ""
				}
				f.Sources = append(f.Sources, Citation{SourceID: src, Path: "../sources/x.md", Anchor: "source-1"})
			}
			b.Footnotes = append(b.Footnotes, f)
		}
		for range r.IntN(4) {
			l := id()
			if r.IntN(3) == 0 {
				l = "^" + l
			}
			b.Links = append(b.Links, l)
		}
		t.Blocks = append(t.Blocks, b)
	}
	return t
}

// TestViewSet_MatchesFullRender applies random sets and removals to a
// ViewSet and compares every output with a render from scratch after each
// step.
func TestViewSet_MatchesFullRender(t *testing.T) {
	for _, m := range []int{maxBucket, 3} {
		t.Run(fmt.Sprintf("bucket=%d", m), func(t *testing.T) {
			defer func(old int) { maxBucket = old }(maxBucket)
			maxBucket = m
			viewSetMatchesFullRender(t)
		})
	}
}

func viewSetMatchesFullRender(t *testing.T) {
	paths := []string{"topics/a.md", "topics/b.md", "topics/b/c.md", "topics/core.md", "topics/my notes (old).md",
		"topics/people/z.md", "topics/x\ny.md", "topics/é.md"}
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 14))
		v := NewViewSet()
		if seed%2 == 1 {
			v.Grow(len(paths), 20) // sized as a fresh process's first merge sizes it: nothing else changes
		}
		cur := map[string]Topic{}
		for step := range 60 {
			p := paths[r.IntN(len(paths))]
			if _, ok := cur[p]; ok && r.IntN(3) == 0 {
				v.Remove(p)
				delete(cur, p)
			} else {
				tp := randomTopic(r, p)
				if old, ok := cur[p]; ok && r.IntN(3) == 0 {
					// The same topic again, maybe with an untrusted block
					// added: what the views draw from it is unchanged.
					tp = Topic{Path: p, Blocks: slices.Clone(old.Blocks)}
					if extra := randomTopic(r, p); len(extra.Blocks) > 0 && r.IntN(2) == 0 {
						b := extra.Blocks[0]
						b.Trusted = false
						tp.Blocks = append(tp.Blocks, b)
					}
				}
				v.Set(tp)
				cur[p] = tp
			}
			// Outputs are read only every few steps, so changes pile up
			// between renders as they do across an install.
			if r.IntN(3) == 0 && step != 59 {
				continue
			}
			var topics []Topic
			for _, p := range slices.Sorted(maps.Keys(cur)) {
				topics = append(topics, cur[p])
			}
			r.Shuffle(len(topics), func(i, j int) { topics[i], topics[j] = topics[j], topics[i] })
			if got, want := v.RecentEvents(), RecentEvents(topics); !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d: recent events\n%s\nwant\n%s", seed, step, got, want)
			}
			if got, want := v.Relations(), Relations(topics); !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d: relations\n%s\nwant\n%s", seed, step, got, want)
			}
			if got, want := v.Timeline(), Timeline(topics); !maps.EqualFunc(got, want, bytes.Equal) {
				t.Fatalf("seed %d step %d: timeline\n%q\nwant\n%q", seed, step, got, want)
			}
		}
	}
}

func TestViewSet_Fixture(t *testing.T) {
	topics := fixtureTopics()
	v := NewViewSet()
	for _, tp := range topics {
		v.Set(tp)
	}
	if !bytes.Equal(v.RecentEvents(), RecentEvents(topics)) || !bytes.Equal(v.Relations(), Relations(topics)) ||
		!maps.EqualFunc(v.Timeline(), Timeline(topics), bytes.Equal) {
		t.Fatal("the fixture renders differently through a ViewSet")
	}
}

// TestViewSet_RelationsSizedOnce: a fresh process's one render of
// relations.json (megabytes at 100k records) is joined into a buffer sized
// for it, not grown by doubling: what is to spare is the allocator's
// rounding to a page, never a growth step (issue 26).
func TestViewSet_RelationsSizedOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 26))
	v := NewViewSet()
	var topics []Topic
	for i := range 3000 {
		tp := randomTopic(r, fmt.Sprintf("topics/t%04d.md", i))
		for j := range tp.Blocks {
			tp.Blocks[j].ID = fmt.Sprintf("%04x%04x", i, j) // many winners, many nodes
			for k := range tp.Blocks[j].Footnotes {
				for c := range tp.Blocks[j].Footnotes[k].Sources { // pairs within a topic and its neighbour
					src := &tp.Blocks[j].Footnotes[k].Sources[c].SourceID
					*src = fmt.Sprintf("p/t%d/%s", i/2, *src)
				}
			}
		}
		v.Set(tp)
		topics = append(topics, tp)
	}
	got := v.Relations()
	if want := Relations(topics); !bytes.Equal(got, want) {
		t.Fatal("relations differ from a render from scratch")
	}
	if len(got) < 1<<20 || cap(got)-len(got) > 8192+8 {
		t.Fatalf("relations.json of %d bytes in a buffer of %d", len(got), cap(got))
	}
}
