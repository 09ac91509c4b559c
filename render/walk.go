package render

import (
	"cmp"
	"slices"
	"strings"
)

// entry is one trusted block with the position that orders it.
type entry struct {
	path  string // workspace path of the topic file
	topic int    // index of the topic in the sorted topic list
	index int    // position of the block in its file
	block *Block
}

// trustedEntries returns the trusted blocks with an id, ordered by topic
// path and then file order, whatever the order of topics. Untrusted blocks
// are dropped here so that no derived view can show them.
func trustedEntries(topics []Topic) []entry {
	sorted := make([]*Topic, len(topics))
	for i := range topics {
		sorted[i] = &topics[i]
	}
	// Topic paths are unique in a workspace; the stable sort keeps even
	// malformed input with duplicates deterministic for a given slice.
	slices.SortStableFunc(sorted, func(a, b *Topic) int { return strings.Compare(a.Path, b.Path) })
	var out []entry
	for ti, t := range sorted {
		for bi := range t.Blocks {
			b := &t.Blocks[bi]
			if !b.Trusted || b.ID == "" {
				continue
			}
			p := b.Path
			if p == "" {
				p = t.Path
			}
			out = append(out, entry{path: p, topic: ti, index: bi, block: b})
		}
	}
	// A block's own path normally equals its topic's; sort on it anyway so
	// the order never depends on the input.
	slices.SortStableFunc(out, compareEntries)
	return out
}

// compareEntries orders entries by path, then topic, then file order.
func compareEntries(a, b entry) int {
	return cmp.Or(strings.Compare(a.path, b.path), cmp.Compare(a.topic, b.topic), cmp.Compare(a.index, b.index))
}

// blockDates returns the distinct valid footnote dates of b, in first
// appearance order.
func blockDates(b *Block) []string {
	var dates []string
	for _, f := range b.Footnotes {
		if isDate(f.Date) && !slices.Contains(dates, f.Date) {
			dates = append(dates, f.Date)
		}
	}
	return dates
}

// normalizeID strips the "^" a block id may carry in a link.
func normalizeID(id string) string {
	return strings.TrimPrefix(id, "^")
}
