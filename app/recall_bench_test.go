package app

import (
	"context"
	"os"
	"testing"

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
}
