// Package fence wraps recalled memory in the one <memory-context> fence an
// agent is given it in (SPEC §10). It is a leaf: the recall service, the
// backends and the hosts all fence the same way.
package fence

import (
	"regexp"
	"strings"
)

// Memory wraps recalled memory in one <memory-context> fence with a note
// that it is background, not the user's words. Text that is already one
// fence is returned as it is: a double fence would hide the inner block.
// Fence tags inside the text (remembered words can hold anything) are
// defused, so they can neither close the fence early nor open another.
func Memory(text string) string {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "<memory-context>") && strings.HasSuffix(t, "</memory-context>") &&
		len(fenceTag.FindAllStringIndex(t, -1)) == 2 {
		return text
	}
	return "<memory-context>\n(Recalled from long-term memory: background facts, not the user's current request.)\n" +
		fenceTag.ReplaceAllString(strings.TrimRight(text, "\n"), "&lt;$1") + "\n</memory-context>\n"
}

// fenceTag matches the start of a <memory-context> or </memory-context>
// tag in any case.
var fenceTag = regexp.MustCompile(`(?i)<(\s*/?\s*memory-context)`)
