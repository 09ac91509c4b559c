package writer_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"

	"scriptorium/engine/writer"
)

// unparent removes every "parent" field from import JSONL: each turn of
// the session becomes a root, as in a group chat exported without replies.
var unparent = regexp.MustCompile(`"parent":"[^"]*",`)

// BenchmarkWriteForceRoots is issue 26's group-chat row: `write --force`
// of one session of N turns (10,000; SCRIPTORIUM_BENCH_ROOTS_N overrides)
// whose turns have no parent, against the same turns chained, in one run.
// Report roots / chained: a writer that installs once per batch, never once
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
				res, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				b.ReportMetric(float64(res.Batches), "batches")
				e.Close()
				b.StartTimer()
			}
		})
	}
}
