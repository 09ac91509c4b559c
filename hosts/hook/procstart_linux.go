package hook

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is USER_HZ, the unit of /proc/PID/stat's start time: 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// processStarted is when the kernel started this process: its age is the
// boot clock now less its start time in /proc/self/stat (10 ms steps).
// The runtime and package initialisation of a large binary take 60 ms
// on an idle machine and over 200 ms on a busy one, all before any code
// of ours runs, and Claude Code's limit counts them too.
func processStarted() (time.Time, bool) {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return time.Time{}, false
	}
	// Field 2, the command, is in parentheses and may hold spaces: the
	// fields after its closing parenthesis are counted from field 3.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return time.Time{}, false
	}
	fields := bytes.Fields(data[i+1:])
	const startField = 22 - 3
	if len(fields) <= startField {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseUint(string(fields[startField]), 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return time.Time{}, false
	}
	now := time.Now()
	age := time.Duration(ts.Nano()) - time.Duration(ticks)*time.Second/clockTicks
	if age < 0 || age > time.Hour {
		return time.Time{}, false
	}
	return now.Add(-age), true
}
