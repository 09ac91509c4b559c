package daemon

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/proposals"
	"scriptorium/engine/sleep"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/treetest"
)

// daemonTestTime is the fixed clock of the engines the daemon runs on.
var daemonTestTime = time.Date(2026, 8, 10, 3, 0, 0, 0, time.UTC)

// sleepOpen copies a sleep fixture workspace (../sleep/testdata/sleep) into
// a temporary state directory and opens it with the given tier.
func sleepOpen(t *testing.T, name string, tier trust.Tier) (*engine.Engine, string) {
	t.Helper()
	state := t.TempDir()
	src := filepath.Join("..", "sleep", "testdata", "sleep", name, "memory")
	if err := treetest.CopyTree(src, filepath.Join(state, "memory")); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state, Tier: tier, Interactive: true,
		Now: func() time.Time { return daemonTestTime }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e, state
}

// holdLock holds the workspace write lock from a second engine on the same
// state dir, as another process would, until the returned func is called.
func holdLock(t *testing.T, state string) func() {
	t.Helper()
	other, err := engine.Open(context.Background(), engine.Options{StateDir: state, Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	held, done := make(chan struct{}), make(chan struct{})
	go other.Locked(context.Background(), false, func(*engine.Tx) error {
		close(held)
		<-done
		return nil
	})
	<-held
	var once sync.Once
	return func() {
		once.Do(func() { close(done); other.Close() })
	}
}

func TestRun_Forbidden(t *testing.T) {
	e, _ := sleepOpen(t, "empty", trust.Paired)
	if err := Run(context.Background(), e, Options{}); errcode.As(err).Code != errcode.Forbidden {
		t.Fatalf("daemon err = %v, want FORBIDDEN", err)
	}
}

// daemonFakeClock is a Clock the test advances by hand. Every After call
// is announced on armed, so the test knows when the daemon is waiting.
type daemonFakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []daemonFakeTimer
	armed  chan time.Duration
}

type daemonFakeTimer struct {
	at time.Time
	ch chan time.Time
}

func newDaemonFakeClock(now time.Time) *daemonFakeClock {
	return &daemonFakeClock{now: now, armed: make(chan time.Duration, 64)}
}

func (c *daemonFakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *daemonFakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, daemonFakeTimer{at: c.now.Add(d), ch: ch})
	c.mu.Unlock()
	c.armed <- d
	return ch
}

// Advance moves the clock and fires every timer that is now due.
func (c *daemonFakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	var keep []daemonFakeTimer
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			keep = append(keep, tm)
			continue
		}
		tm.ch <- c.now
	}
	c.timers = keep
}

// waitArmed waits until the daemon arms a timer for exactly d. The
// deadline only keeps a broken daemon from hanging the test run.
func (c *daemonFakeClock) waitArmed(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case got := <-c.armed:
			if got == d {
				return
			}
		case <-deadline:
			t.Fatalf("the daemon never armed a %s timer", d)
		}
	}
}

// syncBuffer is a log the daemon goroutine writes while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startDaemon runs RunDaemon in the background and returns a stop function
// that cancels it and returns its result.
func startDaemon(t *testing.T, e *engine.Engine, opts Options) func() error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, e, opts) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return stop
}

func TestDaemon_BothSchedules(t *testing.T) {
	e, _ := sleepOpen(t, "merge", trust.Owner)
	zone := time.FixedZone("UTC+2", 2*3600)
	clock := newDaemonFakeClock(time.Date(2026, 8, 10, 2, 58, 30, 0, zone))
	watched := make(chan struct{}, 16)
	calls := 0
	var log syncBuffer
	stop := startDaemon(t, e, Options{Clock: clock, Log: &log, Watch: func(ctx context.Context) error {
		calls++
		watched <- struct{}{}
		if calls == 2 {
			return errors.New("session store is locked")
		}
		return nil
	}})

	// 02:58:30: the pass is 90 s away (03:00 in the clock's zone), the
	// watcher 60 s.
	clock.waitArmed(t, 90*time.Second)
	clock.waitArmed(t, time.Minute)
	clock.Advance(time.Minute) // 02:59:30
	<-watched
	clock.waitArmed(t, time.Minute)
	if ps := enginetest.Passes(t, e); len(ps) != 0 {
		t.Fatalf("a pass ran before 03:00: %+v", ps)
	}

	clock.Advance(30 * time.Second) // 03:00:00: the pass runs
	clock.waitArmed(t, 24*time.Hour)
	ps := enginetest.Passes(t, e)
	if len(ps) != 1 || len(ps[0].Changed) == 0 || ps[0].Error != "" {
		t.Fatalf("passes after 03:00 = %+v, want one that changed the merge fixture", ps)
	}

	clock.Advance(30 * time.Second) // 03:00:30: the watcher's second round fails
	<-watched
	clock.waitArmed(t, time.Minute)

	if err := stop(); err != nil {
		t.Fatalf("RunDaemon returned %v on cancel, want nil", err)
	}
	out := log.String()
	for _, want := range []string{
		"nightly sleep pass at 03:00 local time, next at 2026-08-10T03:00:00+02:00",
		"sleep pass #1 (offline): revision 1",
		"next at 2026-08-11T03:00:00+02:00",
		"idle watcher: session store is locked",
		"daemon: stopping",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if calls != 2 {
		t.Errorf("watcher ran %d times, want 2", calls)
	}
}

// TestDaemon_RetriesWhenLockBusy holds the write lock across 03:00: the
// background pass gives up after 1 s (LOCK_BUSY, not recorded as a pass)
// and runs RetryAfter later.
func TestDaemon_RetriesWhenLockBusy(t *testing.T) {
	e, _ := sleepOpen(t, "merge", trust.Owner)
	clock := newDaemonFakeClock(time.Date(2026, 8, 10, 2, 59, 0, 0, time.UTC))
	var log syncBuffer
	release := holdLock(t, e.StateDir())
	defer release()
	startDaemon(t, e, Options{Clock: clock, Log: &log, RetryAfter: 5 * time.Minute})

	clock.waitArmed(t, time.Minute)
	clock.Advance(time.Minute) // 03:00: the lock is held
	clock.waitArmed(t, 5*time.Minute)
	if ps := enginetest.Passes(t, e); len(ps) != 0 {
		t.Fatalf("a pass that never got the lock was recorded: %+v", ps)
	}
	if !strings.Contains(log.String(), "LOCK_BUSY, retryable") {
		t.Errorf("log does not mention the busy lock:\n%s", log.String())
	}

	release()
	clock.Advance(5 * time.Minute) // 03:05: the retry runs
	clock.waitArmed(t, 24*time.Hour-5*time.Minute)
	if ps := enginetest.Passes(t, e); len(ps) != 1 || len(ps[0].Changed) == 0 {
		t.Fatalf("passes after the retry = %+v", ps)
	}
}

func TestNextDaily_Cases(t *testing.T) {
	zone := time.FixedZone("X", -5*3600)
	tests := []struct {
		name     string
		now      time.Time
		hh, mm   int
		wantTime time.Time
	}{
		{"LaterToday", time.Date(2026, 1, 1, 1, 0, 0, 0, zone), 3, 0, time.Date(2026, 1, 1, 3, 0, 0, 0, zone)},
		{"ExactlyNowIsTomorrow", time.Date(2026, 1, 1, 3, 0, 0, 0, zone), 3, 0, time.Date(2026, 1, 2, 3, 0, 0, 0, zone)},
		{"PassedToday", time.Date(2026, 1, 1, 23, 59, 0, 0, zone), 3, 0, time.Date(2026, 1, 2, 3, 0, 0, 0, zone)},
		{"MonthEnd", time.Date(2026, 1, 31, 4, 0, 0, 0, zone), 3, 30, time.Date(2026, 2, 1, 3, 30, 0, 0, zone)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nextDaily(tt.now, tt.hh, tt.mm); !got.Equal(tt.wantTime) {
				t.Errorf("nextDaily = %s, want %s", got, tt.wantTime)
			}
		})
	}
}

// With sleep.mode = "propose" the nightly pass waits for the owner: the
// workspace is unchanged and one proposal is stored.
func TestNightlyPass_ProposeMode(t *testing.T) {
	e, state := sleepOpen(t, "merge", trust.Owner)
	e.Close()
	cfg := config.Default()
	cfg.Sleep.Mode = config.ModePropose
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state, Config: &cfg, Interactive: true,
		Now: func() time.Time { return daemonTestTime }})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	before, _ := e.Revision()
	summary, err := nightlyPass(context.Background(), e, sleep.SleepOptions{Background: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "stored as proposal") {
		t.Errorf("summary = %q", summary)
	}
	if after, _ := e.Revision(); after != before {
		t.Errorf("a proposed nightly pass installed revision %d", after)
	}
	if ps, err := proposals.List(e); err != nil || len(ps) != 1 {
		t.Errorf("proposals = %+v, %v", ps, err)
	}
}
