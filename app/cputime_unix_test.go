//go:build unix

package app

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) this process has used: the
// benchmark's turns per CPU second do not depend on what else the
// machine runs.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
