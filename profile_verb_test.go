package main

import (
	"bytes"
	"os"
	"runtime/pprof"
	"strings"
	"testing"
)

// TestProfileVerb runs one CLI invocation in this process under the CPU
// profiler, for profiling a verb on a large workspace (issue 26: a fresh
// `update` at 100k records). It runs only when asked:
//
//	SCRIPTORIUM_PROFILE_ARGS='--state DIR update txn.json --json' \
//	SCRIPTORIUM_PROFILE_OUT=update.prof go test -run TestProfileVerb -count=1 .
//
// and then `go tool pprof -top -cum update.prof`.
func TestProfileVerb(t *testing.T) {
	args, out := os.Getenv("SCRIPTORIUM_PROFILE_ARGS"), os.Getenv("SCRIPTORIUM_PROFILE_OUT")
	if args == "" || out == "" {
		t.Skip("set SCRIPTORIUM_PROFILE_ARGS and SCRIPTORIUM_PROFILE_OUT to profile a verb")
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stdout, stderr bytes.Buffer
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	code := run(strings.Fields(args), strings.NewReader(""), &stdout, &stderr)
	pprof.StopCPUProfile()
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout.String(), stderr.String())
	}
	// SCRIPTORIUM_PROFILE_MEM names a file for the allocations (pprof
	// -sample_index=alloc_space): on a VM where first touching memory is
	// dear, what a verb allocates is much of what it costs.
	if mem := os.Getenv("SCRIPTORIUM_PROFILE_MEM"); mem != "" {
		mf, err := os.Create(mem)
		if err != nil {
			t.Fatal(err)
		}
		defer mf.Close()
		if err := pprof.Lookup("allocs").WriteTo(mf, 0); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%.300s", stdout.String())
}
