package daemon

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/sleep"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// Clock is the daemon's view of time. Tests inject a fake one to drive
// the schedule without waiting; Now's location is what "local time" means.
type Clock interface {
	Now() time.Time
	// After delivers the time once d has passed, like time.After.
	After(d time.Duration) <-chan time.Time
}

// SystemClock is the real clock, in the machine's local time zone.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// After returns time.After(d).
func (SystemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// The daemon's default cadences.
const (
	// DefaultWatchEvery is how often the idle-session watcher runs.
	DefaultWatchEvery = time.Minute
	// DefaultSleepRetry is how long the nightly pass waits before trying
	// again after a retryable failure such as LOCK_BUSY.
	DefaultSleepRetry = 5 * time.Minute
)

// Options configures Run. Every field is optional.
type Options struct {
	// Clock drives the schedule; nil means SystemClock.
	Clock Clock
	// Log receives one line per event (pass run, retry, watcher failure);
	// nil discards them.
	Log io.Writer
	// Watch is the idle-session watcher, called every WatchEvery (it
	// force-writes sessions idle for longer than daemon.idle_minutes). Nil
	// means no watcher. Its errors are logged, never fatal.
	Watch func(ctx context.Context) error
	// WatchEvery is the watcher's period; 0 means DefaultWatchEvery.
	WatchEvery time.Duration
	// RetryAfter is the wait after a retryable pass failure; 0 means
	// DefaultSleepRetry. Retries stop at the next regular run.
	RetryAfter time.Duration
	// Sleep configures the nightly pass. It always runs in the background
	// mode: 1 s on a held write lock, then LOCK_BUSY and a retry later.
	Sleep sleep.SleepOptions
}

// Run runs the nightly sleep pass at daemon.sleep_at local time
// (default 03:00) every day and the idle-session watcher every minute,
// until ctx is cancelled; then it returns nil. Both run on one goroutine,
// so a pass and a watcher round never overlap, and it only ever waits on
// timers: no polling.
func Run(ctx context.Context, e *engine.Engine, opts Options) error {
	if err := e.Authorize(trust.OpSleep); err != nil {
		return err
	}
	at, err := time.Parse("15:04", e.Config().Daemon.SleepAt)
	if err != nil {
		return errcode.Errorf(errcode.InvalidArgument, "daemon.sleep_at must be HH:MM, not %q", e.Config().Daemon.SleepAt)
	}
	clock := opts.Clock
	if clock == nil {
		clock = SystemClock{}
	}
	logw := opts.Log
	if logw == nil {
		logw = io.Discard
	}
	watchEvery := opts.WatchEvery
	if watchEvery <= 0 {
		watchEvery = DefaultWatchEvery
	}
	retryAfter := opts.RetryAfter
	if retryAfter <= 0 {
		retryAfter = DefaultSleepRetry
	}
	sopts := opts.Sleep
	sopts.Background = true
	logf := func(format string, args ...any) {
		fmt.Fprintf(logw, "%s %s\n", clock.Now().Format(time.RFC3339), fmt.Sprintf(format, args...))
	}

	next := nextDaily(clock.Now(), at.Hour(), at.Minute())
	logf("daemon: nightly sleep pass at %s local time, next at %s; idle watcher %s",
		e.Config().Daemon.SleepAt, next.Format(time.RFC3339), daemonOnOff(opts.Watch != nil, "every "+watchEvery.String()))
	sleepC := clock.After(next.Sub(clock.Now()))
	var watchC <-chan time.Time
	if opts.Watch != nil {
		watchC = clock.After(watchEvery)
	}
	for {
		select {
		case <-ctx.Done():
			logf("daemon: stopping")
			return nil
		case <-watchC:
			if err := opts.Watch(ctx); err != nil && ctx.Err() == nil {
				logf("idle watcher: %v", err)
			}
			watchC = clock.After(watchEvery)
		case <-sleepC:
			now := clock.Now()
			if now.Before(next) {
				// Woken early (the wall clock was set back): wait the rest.
				sleepC = clock.After(next.Sub(now))
				continue
			}
			summary, err := nightlyPass(ctx, e, sopts)
			if ctx.Err() != nil {
				logf("daemon: stopping")
				return nil
			}
			regular := nextDaily(clock.Now(), at.Hour(), at.Minute())
			next = regular
			switch {
			case err == nil:
				logf("%s; next at %s", summary, next.Format(time.RFC3339))
			case errcode.As(err).Retryable():
				if retry := clock.Now().Add(retryAfter); retry.Before(regular) {
					next = retry
				}
				logf("sleep pass failed (%s, retryable): %s; next try at %s", errcode.As(err).Code, oneLineErr(err), next.Format(time.RFC3339))
			default:
				logf("sleep pass failed (%s): %s; next at %s", errcode.As(err).Code, oneLineErr(err), next.Format(time.RFC3339))
			}
			sleepC = clock.After(next.Sub(clock.Now()))
		}
	}
}

// nightlyPass runs the pass the configuration asks for: installed, or
// stored as a proposal for the owner (sleep.mode = "propose").
func nightlyPass(ctx context.Context, e *engine.Engine, opts sleep.SleepOptions) (string, error) {
	if !e.Config().Sleep.Proposes() {
		rep, err := sleep.Sleep(ctx, e, opts)
		return rep.Summary(), err
	}
	p, err := sleep.Propose(ctx, e, opts)
	if err != nil || len(p.Changed) == 0 {
		return "sleep pass proposed nothing", err
	}
	paths := make([]string, len(p.Changed))
	for i, c := range p.Changed {
		paths[i] = c.Path
	}
	return fmt.Sprintf("sleep pass stored as proposal %s for the owner (%d file(s): %s)", p.ID, len(paths), strings.Join(paths, ", ")), nil
}

// nextDaily returns the first hh:mm strictly after now, in now's location.
// time.Date normalises a time a DST jump skips to the hour after it.
func nextDaily(now time.Time, hh, mm int) time.Time {
	y, mo, d := now.Date()
	t := time.Date(y, mo, d, hh, mm, 0, 0, now.Location())
	if !t.After(now) {
		t = time.Date(y, mo, d+1, hh, mm, 0, 0, now.Location())
	}
	return t
}

func oneLineErr(err error) string { return flattenSpace(err.Error()) }

// flattenSpace turns any whitespace run, newlines included, into one space.
func flattenSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func daemonOnOff(on bool, what string) string {
	if on {
		return what
	}
	return "off"
}
