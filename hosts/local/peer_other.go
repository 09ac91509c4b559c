//go:build !linux

package local

import "net"

// sameUser cannot check the peer here: refuse, so no answer is given.
func sameUser(net.Conn) bool { return false }
