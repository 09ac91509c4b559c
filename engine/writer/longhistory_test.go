package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/scale"
	"scriptorium/workspace"
)

// The writer's scale benchmarks (issue 14: "the writer is quadratic") on
// the long history of scale.History, which is deterministic: the same
// arguments always give the same JSONL. Nothing here runs in the default
// test run except TestLongHistory_Deterministic, which only generates.

// genLongHistory returns the `import` JSONL of nSessions conversations
// holding nTurns turns in all: scale.History (one session a day from
// 2025-01-01, three in four owner↔assistant chats, the rest group chats
// of paired speakers with one message in twenty from an unpaired stranger).
func genLongHistory(nSessions, nTurns int, seed int64) string {
	return scale.History(nSessions, nTurns, seed)
}

func TestLongHistory_Deterministic(t *testing.T) {
	a, b := genLongHistory(27, 600, 14), genLongHistory(27, 600, 14)
	if a != b {
		t.Fatal("genLongHistory is not deterministic")
	}
	if n := strings.Count(a, "\n"); n != 600 {
		t.Fatalf("got %d turns, want 600", n)
	}
}

// lhState returns a fresh state dir with the history imported.
func lhState(tb testing.TB, jsonl string) string {
	tb.Helper()
	state := filepath.Join(tb.TempDir(), "state")
	if err := os.MkdirAll(filepath.Join(state, "memory"), 0o755); err != nil {
		tb.Fatal(err)
	}
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Import(strings.NewReader(jsonl)); err != nil {
		tb.Fatalf("import: %v", err)
	}
	return state
}

func lhOpen(tb testing.TB, state string) *engine.Engine {
	tb.Helper()
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state, Interactive: true,
		Now: func() time.Time { return time.Date(2026, 8, 11, 9, 0, 0, 0, time.UTC) }, Distiller: writer.Distiller{}})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// lhWriteSessions runs `write --force` session by session over the first
// n sessions of the history and returns each session's wall time.
func lhWriteSessions(tb testing.TB, e *engine.Engine, from, to int) []time.Duration {
	tb.Helper()
	var out []time.Duration
	for s := from; s < to; s++ {
		t0 := time.Now()
		if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true, Session: fmt.Sprintf("s%04d", s)}); err != nil {
			tb.Fatalf("write s%04d: %v", s, err)
		}
		out = append(out, time.Since(t0))
	}
	return out
}

// TestLongHistory_WriteForce is the scenario: `write --force` of
// 6,000 turns in 270 sessions, offline. It only runs with
// SCRIPTORIUM_BENCH_WRITER=1 and logs the time; the claim it backs is in
// BENCHMARKS.md, not an assertion.
func TestLongHistory_WriteForce(t *testing.T) {
	if os.Getenv("SCRIPTORIUM_BENCH_WRITER") == "" {
		t.Skip("set SCRIPTORIUM_BENCH_WRITER=1")
	}
	state := lhState(t, genLongHistory(270, 6000, 14))
	e := lhOpen(t, state)
	defer e.Close()
	t0 := time.Now()
	res, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("write --force: %d batches in %v", res.Batches, time.Since(t0))
}

// lhSplit returns the history's JSONL one session at a time, in order.
func lhSplit(jsonl string) []string {
	var out []string
	cur := ""
	var b strings.Builder
	for _, line := range strings.SplitAfter(jsonl, "\n") {
		if line == "" {
			continue
		}
		var t wtTurn
		_ = json.Unmarshal([]byte(line), &t)
		if t.Session != cur && b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
		cur = t.Session
		b.WriteString(line)
	}
	return append(out, b.String())
}

// lhImport adds JSONL turns to the state dir's sessions.db.
func lhImport(tb testing.TB, state, jsonl string) {
	tb.Helper()
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Import(strings.NewReader(jsonl)); err != nil {
		tb.Fatalf("import: %v", err)
	}
}

// BenchmarkWriterBatch measures one session's batch (≈22 turns) on a
// workspace that already holds `at` sessions of the same history, written
// by one `write --force`: at the start (10) and at the end (260) of 270
// sessions. Each iteration imports the next session (untimed), as a hook
// does, and times `write --force --session` of it, so sessions.db never
// holds more than one pending session. The workspace grows by one session
// per iteration, negligible against 260. Report the ratio at=260 / at=10:
// a writer linear in the turns written keeps it near 1.
func BenchmarkWriterBatch(b *testing.B) {
	bySession := lhSplit(genLongHistory(270+200, 6000+200*22, 14))
	for _, at := range []int{10, 260} {
		b.Run(fmt.Sprintf("at=%d", at), func(b *testing.B) {
			state := lhState(b, strings.Join(bySession[:at], ""))
			e := lhOpen(b, state)
			defer e.Close()
			if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
				b.Fatal(err)
			}
			next := at
			for b.Loop() {
				b.StopTimer()
				lhImport(b, state, bySession[next])
				b.StartTimer()
				lhWriteSessions(b, e, next, next+1)
				next++
			}
		})
	}
}

// BenchmarkWriteForce is the scenario, `write --force` of 6,000
// turns in 270 sessions offline, with the distilling writer and, as the
// baseline measured in the same run, the old writer of one block per turn
// (writer.WriteTurnBlocks). Each iteration writes a fresh copy of the
// imported history (the import is untimed). Read the ratio
// writer=distil / writer=turnblocks, of wall time and of cpu_s/op (the
// process's CPU time during the writes, steadier on a shared machine);
// -benchtime=1x is enough.
func BenchmarkWriteForce(b *testing.B) {
	history := genLongHistory(270, 6000, 14)
	for _, w := range []struct {
		name  string
		write func(context.Context, *engine.Engine, writer.WriteOptions) (writer.WriteResult, error)
	}{{"turnblocks", writer.WriteTurnBlocks}, {"distil", writer.Write}} {
		b.Run("writer="+w.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				state := lhState(b, history)
				e := lhOpen(b, state)
				c := processCPU()
				b.StartTimer()
				if _, err := w.write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += processCPU() - c
				e.Close()
				b.StartTimer()
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu_s/op")
		})
	}
}
