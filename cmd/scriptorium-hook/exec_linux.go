package main

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// execCLI replaces this process with `cli hook ARGS…`. When this program
// has read the event (data is not nil), the CLI's stdin is those bytes,
// from an anonymous in-memory file; otherwise it reads this stdin. The
// process stays the same, so the hook's deadlines, which count from the
// process start, cover this program's time too. It returns only on
// failure.
func execCLI(cli string, args []string, data []byte) error {
	if data != nil {
		fd, err := unix.MemfdCreate("scriptorium-hook-event", unix.MFD_CLOEXEC)
		if err != nil {
			return err
		}
		f := os.NewFile(uintptr(fd), "event")
		if _, err := f.Write(data); err != nil {
			return err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return err
		}
		// dup3 clears close-on-exec on the new fd 0: the CLI inherits it.
		if err := unix.Dup3(fd, 0, 0); err != nil {
			return err
		}
	}
	return syscall.Exec(cli, append([]string{cli, "hook"}, args...), os.Environ())
}
