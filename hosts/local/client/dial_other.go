//go:build !unix

package client

import (
	"net"
	"time"
)

// dial connects to the socket at path, every call on it bounded by what
// is left of timeout (dial_unix.go says why unix systems do without net).
func dial(path string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		return nil, err
	}
	_ = c.SetDeadline(time.Now().Add(timeout))
	return c, nil
}
