// Package filediff is the unified diff of one memory file as an install's
// history and forget's plan show it. A leaf: both the core and forget use
// it, so the two cannot drift apart.
package filediff

import udiff "github.com/aymanbagabas/go-udiff"

// Unified is the diff of the file at p from old to new; a nil side is
// /dev/null (the file is created or deleted).
func Unified(p string, old, new []byte) string {
	from, to := "a/"+p, "b/"+p
	if old == nil {
		from = "/dev/null"
	}
	if new == nil {
		to = "/dev/null"
	}
	return udiff.Unified(from, to, string(old), string(new))
}
