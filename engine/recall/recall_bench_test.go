//go:build unix

package recall_test

// The recall's CPU on the labelled set (issue 26: the prompt path must
// not get slower): every question of the dev split recalled at 1,000
// tokens by one long-lived engine, as the hook's resident process does.
// Compare two trees by alternating their test binaries:
//
//	go test -c -o new.test ./engine/recall   # and old.test from the other tree
//	./old.test -test.run '^$' -test.bench RecallLabelled -test.benchtime 20x; ./new.test …

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/recall"
	"scriptorium/engine/writer"
)

func BenchmarkRecallLabelled(b *testing.B) {
	ctx := context.Background()
	ds := enginetest.LoadDistillSet(b, distillDir, "dev")
	state := filepath.Join(b.TempDir(), "state")
	ds.Import(b, state)
	e, err := engine.Open(ctx, engine.Options{StateDir: state, Interactive: true, Now: enginetest.Clock, Distiller: writer.Distiller{}})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		b.Fatal(err)
	}
	var reqs []recall.Request
	for _, c := range ds.Convs {
		for _, q := range c.Questions {
			reqs = append(reqs, recall.Request{Prompt: q.Text, Budget: 1000, Cwd: c.Project})
		}
	}
	// One pass first, so both trees are measured warm (memos filled).
	for _, r := range reqs {
		if _, err := recall.Recall(ctx, e, r); err != nil {
			b.Fatal(err)
		}
	}
	// The machine is shared: wall time is mostly waiting for a core, so
	// the process's CPU time is reported too (cpu-ns/op).
	before := cpuTime(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := recall.Recall(ctx, e, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-before)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far, in ns.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
