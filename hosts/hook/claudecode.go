package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"scriptorium/engine/recall"
	"scriptorium/errcode"
	"scriptorium/hosts/hook/hookio"
	"scriptorium/hosts/local"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/search"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// Claude Code hook events the hook acts on (hookio, which the small hook
// client shares). Any other event is ignored.
const (
	EventUserPromptSubmit = hookio.EventUserPromptSubmit
	EventStop             = hookio.EventStop
	EventPreCompact       = hookio.EventPreCompact
	EventSessionEnd       = hookio.EventSessionEnd
)

// Events are the events `hook install` registers, in settings order.
var Events = hookio.Events

// Time bounds. SessionEnd gets 1.5 s from Claude Code by default, so the
// transcript events stop well before; whatever the writer could not finish
// is left to the daemon. A prompt waits for its context, so recall gets a
// little longer, but never enough to make typing feel slow.
const (
	DefaultTranscriptDeadline = 1200 * time.Millisecond
	DefaultPromptDeadline     = 3 * time.Second
	// grace is how long a run may overrun its deadline before the hook
	// stops waiting for it.
	grace = hookio.Grace
)

// maxInputBytes bounds the hook's stdin and a Codex notification.
const maxInputBytes = hookio.MaxInputBytes

// ErrNoWorkspace is returned when the state dir holds no workspace: the
// hook does nothing then, and records nothing.
var ErrNoWorkspace = hookio.ErrNoWorkspace

// Input is the JSON Claude Code writes to a hook's stdin.
type Input = hookio.Input

// Options configures one hook run.
type Options struct {
	// StateDir is the resolved state directory.
	StateDir string
	// Now is the clock of status records; nil means time.Now.
	Now func() time.Time
	// TranscriptDeadline and PromptDeadline bound the work of the two
	// kinds of events; zero means the defaults above.
	TranscriptDeadline time.Duration
	PromptDeadline     time.Duration
	// Log receives one line per failure (the CLI passes stderr, which
	// Claude Code shows only in its debug output); nil discards.
	Log io.Writer
	// Start is when the hook's process started (ProcessStart), which the
	// transcript deadline counts from; zero means the call's start.
	Start time.Time
	// Open opens the workspace's engine as a background caller (the
	// composition root's app.Opener with the Hook role: at most 1 s of
	// waiting for a held lock, then LOCK_BUSY). Required for the events
	// that need the engine.
	Open func(context.Context) (*engine.Engine, error)
	// resident is a long-lived process's open engine (Served): the prompt
	// recalls from it, neither asking the socket nor opening or closing
	// an engine, and no other event is handled.
	resident *engine.Engine
}

func (o Options) start() time.Time {
	if o.Start.IsZero() {
		return time.Now()
	}
	return o.Start
}

// ClaudeCode runs one Claude Code hook: it reads the event from stdin,
// does that event's work within its deadline and, for UserPromptSubmit,
// prints the context to stdout. It writes stdout only when it has a whole
// answer. The returned error is for logs and tests: it has already been
// recorded, and the caller must still exit 0.
func ClaudeCode(stdin io.Reader, stdout io.Writer, opts Options) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.TranscriptDeadline <= 0 {
		opts.TranscriptDeadline = DefaultTranscriptDeadline
	}
	if opts.PromptDeadline <= 0 {
		opts.PromptDeadline = DefaultPromptDeadline
	}
	if !hasWorkspace(opts.StateDir) {
		fmt.Fprintf(opts.Log, "scriptorium hook: no workspace in %s; doing nothing\n", opts.StateDir)
		return ErrNoWorkspace
	}
	// Reading stdin is bounded too: a caller that never closes it must not
	// hold up the session.
	var in Input
	_, err := within(inputDeadline, opts.Log, func(context.Context) ([]byte, error) {
		var err error
		in, err = readInput(stdin)
		return nil, err
	})
	if err != nil {
		fail(opts, "", err)
		return err
	}
	if !known(in.HookEventName) {
		return nil // an event this hook was not installed for
	}
	if opts.resident != nil && in.HookEventName != EventUserPromptSubmit {
		err := errcode.Errorf(errcode.InvalidArgument, "%s is not answered over HTTP: the transcript events stay command hooks (hook install claude-code --http keeps them so)", in.HookEventName)
		fail(opts, in.HookEventName, err)
		return err
	}
	cfg, err := config.Load(workspace.ConfigPath(opts.StateDir))
	if err != nil {
		fail(opts, in.HookEventName, err)
		return err
	}
	if cfg.Disabled() {
		return nil // the off switch: silent, and nothing on disk is touched
	}
	work := func(ctx context.Context) ([]byte, error) { return handle(ctx, in, opts) }
	var out []byte
	if in.HookEventName == EventUserPromptSubmit {
		out, err = within(opts.PromptDeadline, opts.Log, work)
	} else {
		// The whole process stays within the transcript deadline (budget.go).
		soft, hard := deadlines(opts.start(), opts.TranscriptDeadline)
		out, err = withinBy(soft, hard, opts.Log, work)
	}
	if err == nil && len(out) > 0 {
		_, err = stdout.Write(out)
	}
	if err != nil {
		fail(opts, in.HookEventName, err)
		return err
	}
	recordStatus(opts, in.HookEventName, nil)
	return nil
}

// inputDeadline bounds reading the hook's stdin, which Claude Code writes
// and closes at once.
const inputDeadline = hookio.InputDeadline

// within runs fn within d plus grace (hookio.Within).
func within(d time.Duration, log io.Writer, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	return hookio.Within(d, log, fn)
}

// run runs fn with ctx and waits for it at most wait (hookio.Run).
func run(ctx context.Context, wait, over time.Duration, log io.Writer, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	return hookio.Run(ctx, wait, over, log, fn)
}

// residentWait bounds the wait for a resident process's recall: well
// inside the prompt deadline, so recalling here still fits after it.
const residentWait = time.Second

// handle does one event's work and returns what to print.
func handle(ctx context.Context, in Input, opts Options) ([]byte, error) {
	switch in.HookEventName {
	case EventUserPromptSubmit:
		return promptContext(ctx, in, opts)
	case EventStop, EventPreCompact, EventSessionEnd:
		return nil, transcriptEvent(ctx, in, opts)
	}
	return nil, nil
}

// promptContext is UserPromptSubmit: the budgeted, fenced recall for the
// prompt (the session's project first, from cwd), or nothing when there is
// nothing to recall.
func promptContext(ctx context.Context, in Input, opts Options) ([]byte, error) {
	req := recall.Request{Prompt: in.Prompt, Cwd: in.Cwd}
	if opts.resident != nil {
		// Asked of the process that holds the engine (Served): its own
		// recall, as its socket answers one.
		res, err := recall.Recall(ctx, opts.resident, req)
		if err != nil {
			return nil, err
		}
		return hookio.PromptOutput(res.Text)
	}
	// A long-lived process of the workspace (serve, the daemon) has memory
	// read and its index open: ask it first; anything but a clean answer
	// is recalled here.
	res, ok := local.Recall(workspace.MemoryDir(opts.StateDir), req, residentWait)
	if !ok {
		e, err := openEngine(ctx, opts)
		if err != nil {
			return nil, err
		}
		defer e.Close()
		if res, err = recall.Recall(ctx, e, req); err != nil {
			return nil, err
		}
		recordIndexState(opts, search.StaleSearches(e) > 0)
	}
	return hookio.PromptOutput(res.Text)
}

// transcriptEvent is Stop, PreCompact and SessionEnd: import what the
// transcript gained, then the writer's normal threshold pass for the
// session. The import comes first and needs no engine, so a busy
// workspace still gets its conversation stored for the daemon.
func transcriptEvent(ctx context.Context, in Input, opts Options) error {
	if in.TranscriptPath == "" {
		return errcode.Errorf(errcode.InvalidArgument, "%s without a transcript_path", in.HookEventName)
	}
	has, err := importTranscript(ctx, in.TranscriptPath, in.SessionID, opts.StateDir, opts.Log)
	if err != nil || !has || in.SessionID == "" {
		return err
	}
	if !timeForWriter(ctx) {
		// Not a failure: the conversation is stored, and the writer's
		// threshold pass is the daemon's to run when this one cannot.
		fmt.Fprintf(opts.Log, "scriptorium hook %s: imported; no time left for the writer, the daemon runs it\n", in.HookEventName)
		return nil
	}
	e, err := openEngine(ctx, opts)
	if err != nil {
		return err
	}
	defer e.Close()
	_, err = writer.Write(ctx, e, writer.WriteOptions{Session: in.SessionID, Provider: provider})
	switch {
	case err == nil:
		return nil
	case errcode.As(err).Code == errcode.NotFound:
		return nil // nothing of this session is stored: nothing is owed
	case errcode.As(err).Code == errcode.LockBusy:
		return err // the lock's holder is news for status, even when the deadline ended the wait
	case ctx.Err() != nil && errors.Is(err, context.DeadlineExceeded):
		// Cut off by the hook's own deadline (a slow model): the batch
		// installed nothing, and the daemon writes the session later.
		fmt.Fprintf(opts.Log, "scriptorium hook %s: the writer did not finish in time; the daemon runs it\n", in.HookEventName)
		return nil
	}
	return err
}

// openEngine opens the workspace through Options.Open.
func openEngine(ctx context.Context, opts Options) (*engine.Engine, error) {
	if opts.Open == nil {
		return nil, errcode.Errorf(errcode.IO, "the hook was given no way to open the engine (hook.Options.Open)")
	}
	return opts.Open(ctx)
}

// readInput decodes the hook's stdin.
func readInput(r io.Reader) (Input, error) {
	in, _, err := hookio.ReadInput(r)
	return in, err
}

// known reports whether the hook acts on event.
func known(event string) bool { return hookio.Known(event) }

// hasWorkspace reports whether stateDir holds a workspace or conversations.
func hasWorkspace(stateDir string) bool { return hookio.HasWorkspace(stateDir) }

// fail records a failure and says it on the log. The event is "" when
// the input could not be read.
func fail(opts Options, event string, err error) {
	name := event
	if name == "" {
		name = "(unknown event)"
	}
	fmt.Fprintf(opts.Log, "scriptorium hook %s: %v\n", name, err)
	recordStatus(opts, event, err)
}
