package topic

import "strings"

// PinnedHeading is the section of topics/core.md whose blocks are pinned:
// it is kept first in the file, so the render (which takes blocks in file
// order) gives them the budget before anything else. It is plain Markdown,
// so the file on disk says what is pinned.
const PinnedHeading = "## Pinned"

// PinnedEnd is the index of the first element after the pinned section
// of topics/core.md's elements, or 0 when it has none.
func PinnedEnd(els []Element) int {
	for i, el := range els {
		if el.Kind != KindHeading || strings.TrimSpace(el.Raw) != PinnedHeading {
			continue
		}
		for j := i + 1; j < len(els); j++ {
			if els[j].Kind == KindHeading && els[j].Level <= 2 {
				return j
			}
		}
		return len(els)
	}
	return 0
}
