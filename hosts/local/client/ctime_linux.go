package client

import "syscall"

// ctimeNS is a file's change time in ns.
func ctimeNS(st *syscall.Stat_t) int64 { return st.Ctim.Sec*1e9 + st.Ctim.Nsec }
