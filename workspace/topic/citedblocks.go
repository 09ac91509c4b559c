package topic

import (
	"fmt"
	"regexp"
	"strings"
)

// atxHeading is a one-line Markdown heading.
var atxHeading = regexp.MustCompile(`^#{1,6} \S`)

// CitedBlocks splits hand-written text into blocks that each cite the
// footnote label, in order: a paragraph becomes one block-safe line with a
// block id (its own trailing id kept while free), a one-line heading stays
// as it is. New ids are drawn from seed and the paragraph's index; taken
// holds the ids in use and gains those given. The core's migration of a
// hand-written core.md that is not a valid topic file uses it (SPEC §8).
func CitedBlocks(text, label, seed string, taken map[string]bool) []string {
	var parts []string
	for i, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		para = strings.TrimSpace(para)
		switch {
		case para == "":
		case atxHeading.MatchString(para) && !strings.Contains(para, "\n"):
			parts = append(parts, para)
		default:
			id := ""
			if old := TrailingBlockID(para); old != "" && !taken[old] {
				id = old
			}
			safe := BlockSafe(para)
			if safe == "" {
				continue
			}
			if id == "" {
				id = UniqueBlockID(fmt.Sprintf("%s:%d", seed, i), func(id string) bool { return taken[id] })
			}
			taken[id] = true
			parts = append(parts, fmt.Sprintf("%s[^%s] ^%s", safe, label, id))
		}
	}
	return parts
}
