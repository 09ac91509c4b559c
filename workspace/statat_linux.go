//go:build linux

package workspace

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// statAt is the lstat information of the entry name of the open directory
// d (at path dir): fstatat(2) relative to d, so the kernel looks up one
// component instead of the whole path.
func statAt(d *os.File, dir, name string) (fs.FileInfo, error) {
	rc, err := d.SyscallConn()
	if err != nil {
		return os.Lstat(dir + string(os.PathSeparator) + name)
	}
	fi := &statInfo{name: name}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) {
		serr = unix.Fstatat(int(fd), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}); err != nil {
		return os.Lstat(dir + string(os.PathSeparator) + name)
	}
	if serr != nil {
		return nil, &fs.PathError{Op: "fstatat", Path: dir + string(os.PathSeparator) + name, Err: serr}
	}
	// What os.Lstat gives as Sys(), field by field (the two packages
	// generate the same struct from the kernel's).
	fi.st = syscall.Stat_t{Dev: st.Dev, Ino: st.Ino, Nlink: st.Nlink, Mode: st.Mode, Uid: st.Uid, Gid: st.Gid,
		Rdev: st.Rdev, Size: st.Size, Blksize: st.Blksize, Blocks: st.Blocks,
		Atim: syscall.Timespec{Sec: st.Atim.Sec, Nsec: st.Atim.Nsec},
		Mtim: syscall.Timespec{Sec: st.Mtim.Sec, Nsec: st.Mtim.Nsec},
		Ctim: syscall.Timespec{Sec: st.Ctim.Sec, Nsec: st.Ctim.Nsec}}
	return fi, nil
}

// statInfo is an fs.FileInfo of a stat_t, as os.Lstat would give it
// (Sys is the *syscall.Stat_t).
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (fi *statInfo) Name() string       { return fi.name }
func (fi *statInfo) Size() int64        { return fi.st.Size }
func (fi *statInfo) ModTime() time.Time { return time.Unix(fi.st.Mtim.Unix()) }
func (fi *statInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *statInfo) Sys() any           { return &fi.st }

// Mode is os's conversion of st_mode.
func (fi *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(fi.st.Mode & 0o777)
	switch fi.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if fi.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if fi.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if fi.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}
