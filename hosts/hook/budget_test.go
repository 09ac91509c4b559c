package hook

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestDeadlines (issue 24 §12): a transcript event's hard stop leaves
// exitReserve of the stated deadline, counted from the process start, and
// its context ends grace before that; the stated 1.2 s is what Claude Code
// is promised, SessionEnd's own limit being 1.5 s.
func TestDeadlines(t *testing.T) {
	start := time.Date(2026, 7, 2, 11, 0, 0, 0, time.UTC)
	soft, hard := deadlines(start, DefaultTranscriptDeadline)
	if want := start.Add(DefaultTranscriptDeadline - exitReserve); !hard.Equal(want) {
		t.Errorf("hard stop %s after the start, want %s", hard.Sub(start), want.Sub(start))
	}
	if !soft.Equal(hard.Add(-grace)) || !soft.After(start) {
		t.Errorf("soft %s, hard %s after the start", soft.Sub(start), hard.Sub(start))
	}
	if DefaultTranscriptDeadline > 1200*time.Millisecond || exitReserve < 150*time.Millisecond {
		t.Errorf("deadline %s with %s for the exit: the process may pass the stated 1.2 s", DefaultTranscriptDeadline, exitReserve)
	}
}

// TestWithinBy: the work's context ends at soft, and a run that ignores
// it is abandoned at hard, not waited for.
func TestWithinBy(t *testing.T) {
	soft := time.Now().Add(time.Hour)
	_, err := withinBy(soft, soft.Add(grace), nil, func(ctx context.Context) ([]byte, error) {
		if dl, ok := ctx.Deadline(); !ok || !dl.Equal(soft) {
			t.Errorf("the work's deadline is %v (%v), want %v", dl, ok, soft)
		}
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	past := time.Now().Add(-time.Second)
	var log bytes.Buffer
	_, err = withinBy(past.Add(-grace), past, &log, func(context.Context) ([]byte, error) {
		<-release // work that never looks at its context
		return nil, nil
	})
	if err == nil || !strings.Contains(err.Error(), "gave up") {
		t.Fatalf("past its hard stop: %v", err)
	}
}

// TestTimeForWriter: the writer's pass starts only with minWriterTime left.
func TestTimeForWriter(t *testing.T) {
	if !timeForWriter(context.Background()) {
		t.Error("no deadline: the writer must run")
	}
	short, cancel := context.WithTimeout(context.Background(), minWriterTime/2)
	defer cancel()
	if timeForWriter(short) {
		t.Error("less than minWriterTime left: the writer must be left to the daemon")
	}
	long, cancel2 := context.WithTimeout(context.Background(), time.Hour)
	defer cancel2()
	if !timeForWriter(long) {
		t.Error("an hour left: the writer must run")
	}
	cancel2()
	if timeForWriter(long) {
		t.Error("a cancelled context: the writer must not run")
	}
}

// TestImportBounds: the import stops reading after half the time left and
// commits under a context the soft deadline does not cancel.
func TestImportBounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	before := time.Now()
	ictx, until := importBounds(ctx)
	if _, ok := ictx.Deadline(); ok {
		t.Error("the import's context has the soft deadline: its commit could be cut off")
	}
	if until.Before(before.Add(29*time.Minute)) || until.After(time.Now().Add(31*time.Minute)) {
		t.Errorf("the import reads until %s from now, want half the hour", time.Until(until))
	}
	if c, u := importBounds(context.Background()); c != context.Background() || !u.IsZero() {
		t.Error("no deadline: no bound")
	}
}

// TestProcessStart: the process start is before this package's
// initialisation and not long before it.
func TestProcessStart(t *testing.T) {
	start, ok := processStarted()
	if !ok {
		t.Skip("no process start time on this system")
	}
	if start.After(time.Now()) || time.Since(start) > 10*time.Minute || ProcessStart.After(time.Now()) {
		t.Fatalf("process started %s ago; ProcessStart %s ago", time.Since(start), time.Since(ProcessStart))
	}
}
