//go:build linux

package workspace

import "syscall"

// unreliableLockFS names the filesystem holding path when flock(2) on it is
// known to be unreliable (network and FUSE filesystems), or returns "".
func unreliableLockFS(path string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return ""
	}
	// Magic numbers from linux/magic.h and fs/smb; Type's width varies by
	// architecture, the magic is always 32 bits.
	switch uint32(st.Type) {
	case 0x6969:
		return "NFS"
	case 0x517b, 0xff534d42, 0xfe534d42:
		return "SMB/CIFS"
	case 0x65735546:
		return "FUSE"
	case 0x01021997:
		return "9P"
	}
	return ""
}
