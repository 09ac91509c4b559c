//go:build !linux

package manifest

import (
	"io/fs"
	"syscall"
)

// SigOf is the signature of a file from its lstat information. The change
// time is read on Linux only: elsewhere an in-place edit that keeps the
// size and resets the mtime is seen only while the file is recent enough
// to be hashed, and no index segment is recorded as verified.
func SigOf(fi fs.FileInfo) Sig {
	s := Sig{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino = uint64(st.Ino)
	}
	return s
}
