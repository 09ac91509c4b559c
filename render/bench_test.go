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
