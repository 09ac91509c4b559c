//go:build unix

package workspace

import (
	"errors"
	"syscall"
)

// pidAlive reports whether a process with this pid exists. Signal 0 checks
// without sending anything; EPERM means it exists but belongs to someone
// else. A reused pid reads as alive, which only makes the sweep keep a file.
func pidAlive(pid int) bool {
	if pid <= 0 {
		return false // kill(0) and kill(-n) address process groups
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
