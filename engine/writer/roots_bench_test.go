package writer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"scriptorium/engine/writer"
	"scriptorium/scale"
)

// unparent removes every "parent" field from import JSONL: each turn of
// the session becomes a root, as in a group chat exported without replies.
var unparent = regexp.MustCompile(`"parent":"[^"]*",`)

// BenchmarkWriteForceRoots is issue 26's group-chat row: `write --force`
// of one session of N turns (10,000; SCRIPTORIUM_BENCH_ROOTS_N overrides)
// whose turns have no parent, against the same turns chained, in one run.
// Report roots / chained (wall, and cpu_s, the process's CPU time): a writer that installs once per batch, never once
// per branch, keeps it near 1.
//
//	go test -run '^$' -bench WriteForceRoots -benchtime 1x ./engine/writer
func BenchmarkWriteForceRoots(b *testing.B) {
	n := 10000
	if s := os.Getenv("SCRIPTORIUM_BENCH_ROOTS_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	chained := genLongHistory(1, n, 14)
	roots := unparent.ReplaceAllString(chained, "")
	for _, c := range []struct{ name, jsonl string }{{"chained", chained}, {"roots", roots}} {
		b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				state := lhState(b, c.jsonl)
				e := lhOpen(b, state)
				b.StartTimer()
				cpu := processCPU()
				res, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric(float64(res.Batches), "batches")
				// CPU seconds do not depend on what else the machine runs.
				b.ReportMetric((processCPU() - cpu).Seconds(), "cpu_s")
				e.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkWriterBatchRecords is issue 26's "a writer batch at 100k records
// ≤ 1.5× one at 1k": one session's batch (≈22 turns of scale.History)
// written with `write --force --session` into a workspace of scale.Workspace
// records. The workspace is generated, the index built and one session
// written untimed; each iteration imports the next session (untimed) and
// times its write. The 100k case runs only with SCRIPTORIUM_BENCH_100K=1.
//
//	SCRIPTORIUM_BENCH_100K=1 go test -run '^$' -bench WriterBatchRecords -benchtime 5x -timeout 30m ./engine/writer
func BenchmarkWriterBatchRecords(b *testing.B) {
	bySession := lhSplit(genLongHistory(200, 200*22, 14))
	for _, n := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) {
			if n > 1000 && os.Getenv("SCRIPTORIUM_BENCH_100K") == "" {
				b.Skip("set SCRIPTORIUM_BENCH_100K=1")
			}
			state := filepath.Join(b.TempDir(), "state")
			if _, err := scale.Workspace(filepath.Join(state, "memory"), n, 0x5c0a7e); err != nil {
				b.Fatal(err)
			}
			lhImport(b, state, bySession[0])
			e := lhOpen(b, state)
			defer e.Close()
			if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
				b.Fatal(err)
			}
			next := 1
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				lhImport(b, state, bySession[next])
				b.StartTimer()
				c := processCPU()
				lhWriteSessions(b, e, next, next+1)
				cpu += processCPU() - c
				next++
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu_s/op")
		})
	}
}
