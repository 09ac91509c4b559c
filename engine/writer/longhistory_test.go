package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// The long-history generator and the writer's scale benchmarks (issue 14:
// "the writer is quadratic"). genLongHistory is deterministic: the same
// arguments always give the same JSONL. Nothing here runs in the default
// test run except TestLongHistory_Deterministic, which only generates.

var (
	lhPeople = []struct{ id, display string }{
		{"alice#0042", "Alice"}, {"bob.k", "Bob"}, {"wxid_张伟", "张伟"}, {"carol", "Carol"},
		{"dmitri_88", "Dmitri"}, {"eve-ops", "Eve"}, {"farah", "Farah"}, {"gus", "Gus"},
	}
	lhProjects = []string{"the billing migration", "the Lisbon trip", "ticket-4821", "v2.3.1 release",
		"the garden shed", "Kafka consumer lag", "the book club list", "grandma's birthday", "the flaky CI job",
		"the postgres upgrade", "the school run rota", "the marathon plan"}
	lhVerbs = []string{"moved", "finished", "postponed", "reviewed", "booked", "cancelled", "rewrote", "fixed",
		"priced", "scheduled", "measured", "asked about"}
	lhWords = []string{"tomorrow", "before lunch", "next week", "on Thursday", "again", "finally", "with Sam",
		"for the team", "after the standup", "in the evening", "by Friday", "quietly", "as agreed", "twice"}
	lhZh = []string{"我们周末去杭州看外婆。", "会议改到下午三点。", "记得给猫买粮。", "报销单已经提交了。", "孩子下周开学。"}
)

// lhSentence draws one chat-like sentence.
func lhSentence(r *rand.Rand) string {
	switch r.Intn(10) {
	case 0:
		return lhZh[r.Intn(len(lhZh))]
	case 1:
		return fmt.Sprintf("Can you remind me what we decided about %s?", lhProjects[r.Intn(len(lhProjects))])
	default:
		return fmt.Sprintf("I %s %s %s, %s.", lhVerbs[r.Intn(len(lhVerbs))], lhProjects[r.Intn(len(lhProjects))],
			lhWords[r.Intn(len(lhWords))], lhWords[r.Intn(len(lhWords))])
	}
}

// genLongHistory returns the `import` JSONL of nSessions conversations
// holding nTurns turns in all (session lengths vary, mean nTurns/nSessions),
// one session a day from 2025-01-01. Three sessions in four are
// owner↔assistant chats (speakerless); the rest are group chats of paired
// speakers with speaker ids, one message in twenty from an unpaired
// stranger (archived pending, never distilled).
func genLongHistory(nSessions, nTurns int, seed int64) string {
	r := rand.New(rand.NewSource(seed))
	// Session lengths: mean nTurns/nSessions, between half and 1.5×; the
	// last session takes the rest so the total is exact.
	lens := make([]int, nSessions)
	left := nTurns
	mean := nTurns / nSessions
	for i := range lens {
		if i == nSessions-1 {
			lens[i] = max(left, 1)
			break
		}
		n := mean/2 + r.Intn(mean+1)
		n = min(n, left-(nSessions-1-i))
		lens[i] = max(n, 1)
		left -= lens[i]
	}
	var b strings.Builder
	start := time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)
	for s, n := range lens {
		group := s%4 == 3
		provider := "openprogram"
		if group {
			provider = "telegram"
		}
		session := fmt.Sprintf("s%04d", s)
		at := start.Add(time.Duration(s)*24*time.Hour + time.Duration(r.Intn(600))*time.Minute)
		parent := ""
		for i := 0; i < n; i++ {
			t := wtTurn{Session: session, Provider: provider, ID: fmt.Sprintf("%s-t%03d", session, i), Parent: parent,
				Time: at.Add(time.Duration(i) * 90 * time.Second).Format(time.RFC3339)}
			parts := 1 + r.Intn(3)
			var text []string
			for range parts {
				text = append(text, lhSentence(r))
			}
			t.Content = strings.Join(text, " ")
			switch {
			case !group && i%2 == 0:
				t.Role = "user"
			case !group:
				t.Role = "assistant"
				t.Content = "Noted. " + t.Content
				if r.Intn(5) == 0 {
					t.Content += "\n\n- " + lhSentence(r) + "\n- " + lhSentence(r)
				}
			case r.Intn(20) == 0:
				t.Role, t.SpeakerID, t.SpeakerDisplay, t.Tier, t.Group = "user", "stranger-"+session, "Stranger", "unpaired", true
			default:
				p := lhPeople[r.Intn(len(lhPeople))]
				t.Role, t.SpeakerID, t.SpeakerDisplay, t.Tier, t.Group = "user", p.id, p.display, "paired", true
			}
			data, _ := json.Marshal(t)
			b.Write(data)
			b.WriteByte('\n')
			parent = t.ID
		}
	}
	return b.String()
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
