//go:build !linux

package hook

import "time"

// processStarted is unknown here: ProcessStart falls back to the package's
// initialisation.
func processStarted() (time.Time, bool) { return time.Time{}, false }
