package faultfs

import (
	"os"
	"syscall"
	"unsafe"
)

// The ioctls of chattr (linux/fs.h) and the immutable flag.
const (
	fsIocGetFlags = 0x80086601
	fsIocSetFlags = 0x40086602
	fsImmutableFl = 0x10
)

func setImmutable(p string, on bool) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	var flags int
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), fsIocGetFlags, uintptr(unsafe.Pointer(&flags))); e != 0 {
		return e
	}
	if on {
		flags |= fsImmutableFl
	} else {
		flags &^= fsImmutableFl
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), fsIocSetFlags, uintptr(unsafe.Pointer(&flags))); e != 0 {
		return e
	}
	return nil
}

func makeImmutable(paths []string) (func() error, string, error) {
	var done []string
	undo := func() error {
		var first error
		for i := len(done) - 1; i >= 0; i-- {
			if err := setImmutable(done[i], false); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	for _, p := range paths {
		if err := setImmutable(p, true); err != nil {
			_ = undo()
			return nil, "", ErrNoReadOnly
		}
		done = append(done, p)
	}
	return undo, "the immutable flag", nil
}
