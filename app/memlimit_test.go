package app

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestOpen_OneShotMemoryLimit: a verb and the hook run under the soft
// memory limit that keeps a 1M-record verb under 1 GiB (issue 26); the
// long-lived roles do not, and GOMEMLIMIT wins.
func TestOpen_OneShotMemoryLimit(t *testing.T) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: the runtime's own limit wins")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	for _, c := range []struct {
		role Role
		want int64
	}{{Serve, math.MaxInt64}, {Daemon, math.MaxInt64}, {TUI, math.MaxInt64}, {MCP, math.MaxInt64},
		{Verb, oneShotMemoryLimit}, {Hook, oneShotMemoryLimit}} {
		debug.SetMemoryLimit(math.MaxInt64)
		state := t.TempDir()
		e, err := Open(t.Context(), state, c.role, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_ = e.Close()
		if got := debug.SetMemoryLimit(-1); got != c.want {
			t.Errorf("%s: memory limit %d, want %d", c.role, got, c.want)
		}
	}
	// A lower limit already set is kept.
	debug.SetMemoryLimit(100 << 20)
	e, err := Open(t.Context(), t.TempDir(), Verb, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_ = e.Close()
	if got := debug.SetMemoryLimit(-1); got != 100<<20 {
		t.Errorf("a lower limit became %d", got)
	}
}
