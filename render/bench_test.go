package render

import (
	"fmt"
	"testing"
)

// benchCore returns a core topic of n realistic blocks, each citing one
// source through its own footnote.
func benchCore(n int) Topic {
	t := Topic{Path: CoreTopicPath}
	for i := range n {
		id := fmt.Sprintf("%08x", 0x10000000+i*7919)
		label := fmt.Sprintf("e-%010x", 0x100000000+i*104729)
		anchor := fmt.Sprintf("source-%08x", 0x20000000+i*31)
		text := fmt.Sprintf("Fact %d: the owner prefers short answers about project %d, written in plain English and without jargon.[^%s]", i, i%7, label)
		t.Blocks = append(t.Blocks, Block{
			ID:      id,
			Raw:     text + " ^" + id,
			Text:    text,
			Trusted: i%9 != 4,
			Footnotes: []Footnote{{
				Label: label,
				Date:  fmt.Sprintf("2024-03-%02d", 1+i%28),
				Raw:   fmt.Sprintf("[^%s]: Time: `2024-03-%02d`; Sources: [openprogram/sess-%d/msg_%d](../sources/openprogram/_v2/sess-%d.md#%s)", label, 1+i%28, i%5, i, i%5, anchor),
				Sources: []Citation{{
					SourceID: fmt.Sprintf("openprogram/sess-%d/msg_%d", i%5, i),
					Path:     fmt.Sprintf("../sources/openprogram/_v2/sess-%d.md", i%5),
					Anchor:   anchor,
				}},
			}},
		})
	}
	return t
}

// BenchmarkCore renders a core topic whose included part is about 2000
// tokens, with about as many tokens again left out. The full_count case is
// the reference that counts every candidate render from scratch.
func BenchmarkCore(b *testing.B) {
	topic := benchCore(60)
	CountTokens("warm up")
	b.Run("render", func(b *testing.B) {
		var rep CoreReport
		for b.Loop() {
			_, rep = Core(topic, DefaultCoreBudget)
		}
		b.ReportMetric(float64(len(rep.Included)), "included")
		b.ReportMetric(float64(rep.Tokens), "tokens")
	})
	b.Run("full_count", func(b *testing.B) {
		blocks := prepared(topic)
		for b.Loop() {
			coreRender(topic.Blocks, blocks, DefaultCoreBudget, exactTokens)
		}
	})
}

// BenchmarkViewSetInstall is the derived views' share of a writer batch at
// 100k records (issue 26): a ViewSet of 500 topics of 20 dated blocks
// citing shared sources; each iteration appends a block to one topic and
// renders recent_events.jsonl, relations.json and the timeline.
func BenchmarkViewSetInstall(b *testing.B) {
	v := NewViewSet()
	mk := func(f, i int) Block {
		id := fmt.Sprintf("%08x", uint32(f*1000+i)*2654435761)
		d := fmt.Sprintf("2024-%02d-%02d", 1+(f*7+i)%12, 1+(f+i*3)%28)
		src := fmt.Sprintf("p/t%d/m%d", (f*13+i)%700, i%3)
		return Block{ID: id, Trusted: true, Text: fmt.Sprintf("Block %d of file %d: the owner said something worth keeping.", i, f),
			Links:     []string{fmt.Sprintf("%08x", 0x10000000+((f+1)%500)*1000+i)},
			Footnotes: []Footnote{{Label: "e-1", Date: d, Sources: []Citation{{SourceID: src, Path: "../sources/x.md", Anchor: "source-1"}}}}}
	}
	topics := make([]Topic, 500)
	for f := range topics {
		topics[f].Path = fmt.Sprintf("topics/t%03d.md", f)
		for i := range 20 {
			topics[f].Blocks = append(topics[f].Blocks, mk(f, i))
		}
		v.Set(topics[f])
	}
	v.RecentEvents()
	v.Relations()
	v.Timeline()
	size := 0
	for b.Loop() {
		f := len(topics[0].Blocks) % 500
		topics[f].Blocks = append(topics[f].Blocks, mk(f, len(topics[f].Blocks)))
		topics[0].Blocks = append(topics[0].Blocks, mk(0, len(topics[0].Blocks)))
		v.Set(topics[f])
		v.Set(topics[0])
		size = len(v.RecentEvents()) + len(v.Relations())
		v.Timeline()
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

// BenchmarkViewSetFreshLoad is a fresh process's first render of the views
// at 100k records (issue 26): the fragments of 500 topics of 20 dated
// blocks, saved by an earlier process, merged into an empty ViewSet in the
// order a map gives them, then every view rendered.
func BenchmarkViewSetFreshLoad(b *testing.B) {
	src := NewViewSet()
	var paths []string
	for f := range 500 {
		t := Topic{Path: fmt.Sprintf("topics/t%03d.md", f)}
		for i := range 20 {
			id := fmt.Sprintf("%08x", uint32(f*1000+i)*2654435761)
			d := fmt.Sprintf("2024-%02d-%02d", 1+(f*7+i)%12, 1+(f+i*3)%28)
			t.Blocks = append(t.Blocks, Block{ID: id, Trusted: true, Text: fmt.Sprintf("Block %d of file %d: the owner said something worth keeping.", i, f),
				Links: []string{fmt.Sprintf("%08x", uint32(((f+1)%500)*1000+i)*2654435761)},
				Footnotes: []Footnote{{Label: "e-1", Date: d, Sources: []Citation{{SourceID: fmt.Sprintf("p/t%d/m%d", f, i/2),
					Path: "../sources/x.md", Anchor: "source-1"}}}}})
		}
		src.Set(t)
		paths = append(paths, t.Path)
	}
	frags := map[string]string{}
	entries := 0
	for _, p := range paths {
		frag, _ := src.AppendFragment(nil, p)
		frags[p] = string(frag)
		entries += 20
	}
	for _, grow := range []bool{false, true} {
		b.Run(fmt.Sprintf("grow=%v", grow), func(b *testing.B) {
			for b.Loop() {
				v := NewViewSet()
				if grow {
					v.Grow(len(frags), entries)
				}
				for p, frag := range frags {
					if err := v.SetFragment(p, frag); err != nil {
						b.Fatal(err)
					}
				}
				v.RecentEvents()
				v.Relations()
				v.Timeline()
			}
		})
	}
}
