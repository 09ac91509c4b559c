package manifest

import (
	"io/fs"
	"syscall"
)

// SigOf is the signature of a file from its lstat information.
func SigOf(fi fs.FileInfo) Sig {
	s := Sig{Size: fi.Size(), MtimeNS: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.Ino, s.CtimeNS = st.Ino, st.Ctim.Sec*1e9+st.Ctim.Nsec
	}
	return s
}
