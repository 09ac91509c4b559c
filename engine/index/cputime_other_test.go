//go:build !unix

package index

import "time"

// processCPU is zero where getrusage is not available: no CPU ratio.
func processCPU() time.Duration { return 0 }
