package engine

import (
	"strings"

	"scriptorium/workspace/topic"
)

// Explaining and reordering core.md are the recall service's
// (engine/recall: ExplainCore, ReorderCore); the core keeps their types,
// which the front ends share, and the pinned section's rule, which the
// core's own CoreView reads too.

// PinnedHeading is the section of topics/core.md whose blocks are pinned:
// it is kept first in the file, so the render (which takes blocks in file
// order) gives them the budget before anything else. It is plain Markdown,
// so the file on disk says what is pinned.
const PinnedHeading = "## Pinned"

// PinnedEnd is the index of the first element after the pinned section
// of topics/core.md's elements, or 0 when it has none.
func PinnedEnd(els []topic.Element) int { return pinnedRange(els) }

// pinnedRange returns the index of the first element after the pinned
// section, or 0 when topics/core.md has none.
func pinnedRange(els []topic.Element) int {
	for i, el := range els {
		if el.Kind != topic.KindHeading || strings.TrimSpace(el.Raw) != PinnedHeading {
			continue
		}
		for j := i + 1; j < len(els); j++ {
			if els[j].Kind == topic.KindHeading && els[j].Level <= 2 {
				return j
			}
		}
		return len(els)
	}
	return 0
}
