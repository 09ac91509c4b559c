//go:build !linux

package engine

import (
	"io/fs"
	"syscall"
)

// inodeCtime returns a file's inode number. The change time is read on
// Linux only: elsewhere an in-place edit that keeps the size and resets the
// mtime is seen only while the file is recent enough to be hashed.
func inodeCtime(fi fs.FileInfo) (uint64, int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino), 0
	}
	return 0, 0
}
