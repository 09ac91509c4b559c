package index

import (
	"io/fs"
	"syscall"
)

// inodeCtime returns a file's inode number and change time (ns).
func inodeCtime(fi fs.FileInfo) (uint64, int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino, st.Ctim.Sec*1e9 + st.Ctim.Nsec
	}
	return 0, 0
}
