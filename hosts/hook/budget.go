package hook

import (
	"context"
	"io"
	"time"
)

// ProcessStart is when this process started: the kernel's start time
// where the system says it (processStarted), else this package's
// initialisation, which runs before main. The CLI passes it as
// Options.Start, so that a transcript event's deadline counts the whole
// process, as Claude Code's limit does.
var ProcessStart = func() time.Time {
	if t, ok := processStarted(); ok {
		return t
	}
	return time.Now()
}()

// exitReserve is what a transcript event keeps, inside its deadline, for
// what follows the hard stop: recording the status and the process exit
// (60–110 ms measured on a busy 2-core machine, and the status file's fsync; BENCHMARKS.md).
const exitReserve = 250 * time.Millisecond

// minWriterTime is the least time left for which the writer's threshold
// pass is started: one that cannot finish is left to the daemon rather
// than started and abandoned.
const minWriterTime = 250 * time.Millisecond

// deadlines are a transcript event's two stops, counted from the process
// start: soft, the context's deadline, when work still running winds down
// (the import stops at a line end and commits, the writer is cut off);
// and hard, when the hook stops waiting for it and exits. hard leaves
// exitReserve of the stated deadline d, and soft leaves grace before hard.
func deadlines(start time.Time, d time.Duration) (soft, hard time.Time) {
	hard = start.Add(d - exitReserve)
	return hard.Add(-grace), hard
}

// withinBy runs fn as within does, with its context's deadline at soft
// and the wait for it ending at hard.
func withinBy(soft, hard time.Time, log io.Writer, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	ctx, cancel := context.WithDeadline(context.Background(), soft)
	defer cancel()
	return run(ctx, time.Until(hard), hard.Sub(soft), log, fn)
}

// timeForWriter reports whether ctx leaves the writer's threshold pass
// minWriterTime.
func timeForWriter(ctx context.Context) bool {
	dl, ok := ctx.Deadline()
	return ctx.Err() == nil && (!ok || time.Until(dl) >= minWriterTime)
}

// importBounds are the import's bounds within ctx: it reads at most
// importBytesPerEvent and stops at a line end once 1/importShare of the
// time left has gone, then commits. Its context is ctx without the
// deadline: an import cut off at the soft deadline would roll back what it
// read, and the hard stop still bounds the process.
func importBounds(ctx context.Context) (context.Context, time.Time) {
	dl, ok := ctx.Deadline()
	if !ok {
		return ctx, time.Time{}
	}
	return context.WithoutCancel(ctx), time.Now().Add(time.Until(dl) / importShare)
}
