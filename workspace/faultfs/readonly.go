package faultfs

import (
	"errors"
	"os"
)

// ErrNoReadOnly is returned by MakeReadOnly when this process cannot make
// a file unwritable for itself: root ignores file modes, and the immutable
// flag needs Linux and a filesystem that has it.
var ErrNoReadOnly = errors.New("faultfs: cannot make files read-only for this process")

// MakeReadOnly makes each path (files or directories) unwritable for this
// process, so SQLite and the engine meet EACCES or EPERM opening it for
// writing: by mode bits (0444 or 0555) for an ordinary user, by the
// immutable flag (chattr +i) for root, whom modes do not stop. undo puts
// everything back and must be called before the test's temp dir is
// removed. how says which way it went.
func MakeReadOnly(paths ...string) (undo func() error, how string, err error) {
	if os.Geteuid() != 0 {
		var modes []os.FileMode
		for _, p := range paths {
			fi, err := os.Stat(p)
			if err != nil {
				return nil, "", err
			}
			modes = append(modes, fi.Mode().Perm())
		}
		undo = func() error {
			var first error
			for i, p := range paths {
				if err := os.Chmod(p, modes[i]); err != nil && first == nil {
					first = err
				}
			}
			return first
		}
		for i, p := range paths {
			mode := os.FileMode(0o444)
			if modes[i]&0o100 != 0 {
				mode = 0o555
			}
			if err := os.Chmod(p, mode); err != nil {
				_ = undo()
				return nil, "", err
			}
		}
		return undo, "file modes", nil
	}
	return makeImmutable(paths)
}
