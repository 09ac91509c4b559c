package workspace

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// CheckTopicPath returns why p is not an acceptable topic path, or "".
// It looks at the name only (the engine checks the disk afterwards), so a
// picker can refuse "topics/../evil.md" as it is typed, with no engine.
func CheckTopicPath(p string) string {
	switch {
	case p == "":
		return "empty path"
	case strings.ContainsAny(p, "\\\x00"):
		return "paths use / and contain no NUL"
	case path.IsAbs(p) || filepath.IsAbs(p):
		return "absolute paths are not allowed"
	case path.Clean(p) != p:
		return "path is not clean (no ./, ../, // or trailing /)"
	case !strings.HasPrefix(p, "topics/"):
		return "edits stay under topics/"
	case !strings.HasSuffix(p, ".md") || strings.HasSuffix(p, "/.md"):
		return "topic files end in .md"
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return "path traversal is not allowed"
		}
		if err := CheckSegment(seg); err != nil {
			return fmt.Sprintf("unsafe path segment %q", seg)
		}
		// Dot names are the engine's own (.scriptorium) or hidden from a
		// person browsing the folder: memory there is memory nobody sees.
		if strings.HasPrefix(seg, ".") {
			return fmt.Sprintf("hidden path segment %q: names starting with \".\" are not topic paths", seg)
		}
	}
	return ""
}
