package app

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"scriptorium/engine/recall"
	"scriptorium/trust"
)

// BenchmarkColdRecall is a one-shot recall without the process start: each
// iteration opens the workspace as a CLI verb does, recalls for one prompt
// and closes. It runs on a warm workspace given by SCRIPTORIUM_BENCH_STATE
// (a state dir whose index is built, e.g. scripts/scale's 100k work dir),
// and is skipped without one. Use -benchmem, -cpuprofile, -memprofile.
func BenchmarkColdRecall(b *testing.B) {
	dir := os.Getenv("SCRIPTORIUM_BENCH_STATE")
	if dir == "" {
		b.Skip("SCRIPTORIUM_BENCH_STATE is not set")
	}
	prompt := os.Getenv("SCRIPTORIUM_BENCH_PROMPT")
	if prompt == "" {
		prompt = "budget auth service"
	}
	ctx := context.Background()
	c0 := processCPU()
	for b.Loop() {
		e, err := Open(ctx, dir, Verb, Options{Tier: trust.Owner})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := recall.Recall(ctx, e.Engine, recall.Request{Prompt: prompt, Cwd: b.TempDir()}); err != nil {
			b.Fatal(err)
		}
		if err := e.Close(); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// reportCPU adds the process's CPU time per iteration since c0 (user +
// system, GC included), which the machine's load does not inflate as it
// does the wall time.
func reportCPU(b *testing.B, c0 time.Duration) {
	if c := processCPU(); c > 0 {
		b.ReportMetric(float64(c-c0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkResidentRecall is a served recall without the socket: one
// long-lived engine (as serve, the daemon or the TUI open it) answers the
// prompts in turn, as the local socket's op "recall" does. The first
// recall, which loads the snapshot, is left out. SCRIPTORIUM_BENCH_STATE
// as for BenchmarkColdRecall; SCRIPTORIUM_BENCH_BUDGET a recall budget
// (0: the configured one; at the default 1,000 tokens the 100k
// workspace's answer is its core alone, at 4,000 hits come in).
func BenchmarkResidentRecall(b *testing.B) {
	dir := os.Getenv("SCRIPTORIUM_BENCH_STATE")
	if dir == "" {
		b.Skip("SCRIPTORIUM_BENCH_STATE is not set")
	}
	prompts := []string{"budget auth service", "kafka logs", "中文课 明天"}
	if p := os.Getenv("SCRIPTORIUM_BENCH_PROMPT"); p != "" {
		prompts = []string{p}
	}
	budget, _ := strconv.Atoi(os.Getenv("SCRIPTORIUM_BENCH_BUDGET")) // 0: the configured one
	ctx := context.Background()
	e, err := Open(ctx, dir, Serve, Options{Tier: trust.Owner})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	cwd := b.TempDir()
	if _, err := recall.Recall(ctx, e.Engine, recall.Request{Prompt: prompts[0], Cwd: cwd, Budget: budget}); err != nil {
		b.Fatal(err)
	}
	i, c0 := 0, processCPU()
	for b.Loop() {
		if _, err := recall.Recall(ctx, e.Engine, recall.Request{Prompt: prompts[i%len(prompts)], Cwd: cwd, Budget: budget}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	reportCPU(b, c0)
}
