package result

import (
	"fmt"
	"strings"
)

// Summary is the pass in one line, for logs and the CLI: its number and
// model, then "no changes", the files it changed, or why it was rejected.
func (r PassReport) Summary() string {
	head := fmt.Sprintf("sleep pass #%d (%s)", r.Pass, r.Model)
	if r.Error != "" {
		return head + ": rejected, nothing changed: " + flattenSpace(r.Error)
	}
	if len(r.Changed) == 0 {
		return head + ": no changes"
	}
	paths := make([]string, len(r.Changed))
	for i, c := range r.Changed {
		paths[i] = c.Path
	}
	return fmt.Sprintf("%s: revision %d, %d file(s) changed: %s", head, r.Revision, len(r.Changed), strings.Join(paths, ", "))
}

func flattenSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
