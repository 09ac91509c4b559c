package hook_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"scriptorium/app"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/importer"
	"scriptorium/hosts/hook"
)

// TestClaudeCode_LargeTranscriptAcrossEvents (issue 24 §5): a transcript
// larger than one event's import bound is imported over several Stop
// events, each from the offset the last one stored, and the daemon's round
// finishes what the hook left: every turn stored once, none lost.
func TestClaudeCode_LargeTranscriptAcrossEvents(t *testing.T) {
	defer hook.SetImportBytesPerEvent(64 << 10)()
	const exchanges = 40 // 80 lines of about 6 KB
	data := longTranscript(exchanges)
	state := enginetest.Fixture(t, "valid")
	path := writeFile(t, t.TempDir(), sessionID+".jsonl", data)
	// The deadline is long: this test is about the per-event byte bound,
	// and the writer's pass, which each event runs, must not be cut off
	// on a loaded machine (the deadline has its own tests).
	stop := func() (string, error) {
		var out, log strings.Builder
		err := hook.ClaudeCode(strings.NewReader(input(t, hook.EventStop, path, nil)), &out, hook.Options{StateDir: state,
			Log: &log, TranscriptDeadline: time.Minute, Open: app.Opener(state, app.Hook, app.Options{})})
		return log.String(), err
	}
	last := 0
	for event := 1; event <= 3; event++ {
		log, err := stop()
		if err != nil {
			t.Fatalf("event %d: %v\n%s", event, err, log)
		}
		n := storedNodes(t, state)
		if n <= last || n >= 2*exchanges {
			t.Fatalf("event %d: %d nodes stored (before: %d): each event must store a bounded part", event, n, last)
		}
		if !strings.Contains(log, "left for the next event or the daemon") {
			t.Errorf("event %d: the log does not say what is left:\n%s", event, log)
		}
		last = n
	}
	results, err := importer.FinishUnfinished(context.Background(), state)
	if err != nil || len(results) != 1 || results[0].Err != nil {
		t.Fatalf("daemon round: %+v, %v", results, err)
	}
	if n := storedNodes(t, state); n != 2*exchanges {
		t.Fatalf("after the daemon's round: %d nodes, want %d", n, 2*exchanges)
	}
	if res := results[0].Result; res.Imported != 2*exchanges-last || res.Skipped[importer.SkipDuplicate] != 0 {
		t.Fatalf("the daemon stored %d (duplicates %d), want the %d the hook left", res.Imported, res.Skipped[importer.SkipDuplicate], 2*exchanges-last)
	}
	// Another event finds nothing new and stores nothing.
	if log, err := stop(); err != nil || strings.Contains(log, "left for") {
		t.Fatalf("after the daemon: %v\n%s", err, log)
	}
	if n := storedNodes(t, state); n != 2*exchanges {
		t.Fatalf("%d nodes after a last event", n)
	}
}

// TestClaudeCode_DeadlineFromProcessStart: the transcript deadline counts
// from Options.Start (the process start), not from when the event is
// handled: a hook whose process started long ago gives up at once, and
// says so in status.
func TestClaudeCode_DeadlineFromProcessStart(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	path := writeFile(t, t.TempDir(), sessionID+".jsonl", longTranscript(2))
	var out, log strings.Builder
	err := hook.ClaudeCode(strings.NewReader(input(t, hook.EventStop, path, nil)), &out, hook.Options{StateDir: state,
		Log: &log, Start: time.Now().Add(-time.Hour), Open: app.Opener(state, app.Hook, app.Options{})})
	if err == nil || !strings.Contains(err.Error(), "gave up") || out.Len() != 0 {
		t.Fatalf("out %q, err %v, log %s", out.String(), err, log.String())
	}
	if st := hookStatus(t, state); st.LastFailure == nil || !strings.Contains(st.LastFailure.Message, "gave up") {
		t.Fatalf("status %+v", st)
	}
	// The abandoned import goes on in this process (a real hook has
	// exited): out of time, it stops after the first line and commits, as
	// its context has no deadline. Wait for it before the cleanup.
	for end := time.Now().Add(10 * time.Second); storedNodes(t, state) == 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // its last writes (the offset's transaction is the same commit)
}
