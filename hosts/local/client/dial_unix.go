//go:build unix

package client

import (
	"os"
	"syscall"
	"time"
)

// dial connects to the unix socket at path with plain system calls, not
// the net package: net links the cgo resolver into a program built with
// cgo (go build's default where a C compiler is found), which made the
// small hook client a dynamically linked program, its start paying the
// dynamic loader and libc's thread set-up (BENCHMARKS.md, round five of
// the resident prompt path). The socket is non-blocking and handed to the
// runtime's poller (os.NewFile), so the wait for the answer parks the
// goroutine as net would, instead of holding a thread in a system call
// that the runtime's monitor keeps waking to look at, and the deadline is
// the poller's. A connect that would wait (the server's backlog full)
// fails at once, as net's does for a unix socket.
func dial(path string, timeout time.Duration) (*os.File, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd) // the client may exec the CLI next
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: path})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	if err := f.SetDeadline(time.Now().Add(timeout)); err != nil {
		f.Close() // not pollable: no bound on the wait
		return nil, err
	}
	return f, nil
}
