//go:build unix

package client

import (
	"errors"
	"io"
	"syscall"
	"time"
)

// dial connects to the unix socket at path with plain system calls, not
// the net package: net links the cgo resolver into a program built with
// cgo (go build's default where a C compiler is found), which made the
// small hook client a dynamically linked program, its start paying the
// dynamic loader and libc's thread set-up (BENCHMARKS.md, round five of
// the resident prompt path). The connection is blocking; every call on it
// is bounded by what is left of timeout (SO_SNDTIMEO bounds connect too).
func dial(path string, timeout time.Duration) (*sockConn, error) {
	deadline := time.Now().Add(timeout)
	syscall.ForkLock.RLock()
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fd) // the client may exec the CLI next
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, err
	}
	c := &sockConn{fd: fd, deadline: deadline}
	if err := c.bound(syscall.SO_SNDTIMEO); err != nil {
		c.Close()
		return nil, err
	}
	for {
		err = syscall.Connect(fd, &syscall.SockaddrUnix{Name: path})
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// sockConn is a connected blocking socket whose reads and writes end by a
// deadline.
type sockConn struct {
	fd       int
	deadline time.Time
}

var errTimeout = errors.New("local socket: timed out")

// bound sets the socket's timeout opt (SO_SNDTIMEO, SO_RCVTIMEO) to what
// is left before the deadline.
func (c *sockConn) bound(opt int) error {
	left := time.Until(c.deadline)
	if left <= 0 {
		return errTimeout
	}
	// A zero timeval means no timeout: never set one below a microsecond.
	tv := syscall.NsecToTimeval(max(left.Nanoseconds(), int64(time.Microsecond)))
	return syscall.SetsockoptTimeval(c.fd, syscall.SOL_SOCKET, opt, &tv)
}

func (c *sockConn) Read(p []byte) (int, error) {
	if err := c.bound(syscall.SO_RCVTIMEO); err != nil {
		return 0, err
	}
	for {
		n, err := syscall.Read(c.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
			return 0, errTimeout
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

func (c *sockConn) Write(p []byte) (int, error) {
	if err := c.bound(syscall.SO_SNDTIMEO); err != nil {
		return 0, err
	}
	done := 0
	for done < len(p) {
		n, err := syscall.Write(c.fd, p[done:])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN || err == syscall.EWOULDBLOCK:
			return done, errTimeout
		case err != nil:
			return done, err
		}
		done += n
	}
	return done, nil
}

func (c *sockConn) Close() error { return syscall.Close(c.fd) }
