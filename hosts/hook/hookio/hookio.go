// Package hookio is the part of the Claude Code hook (hosts/hook) that the
// small hook client cmd/scriptorium-hook links without the engine: the
// event read from stdin, the bounded run of a piece of work, and the
// prompt's answer as Claude Code reads it. Both programs print through
// these functions, so their bytes are the same.
package hookio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"scriptorium/errcode"
	"scriptorium/workspace"
)

// Claude Code hook events the hook acts on. Any other event is ignored.
const (
	EventUserPromptSubmit = "UserPromptSubmit"
	EventStop             = "Stop"
	EventPreCompact       = "PreCompact"
	EventSessionEnd       = "SessionEnd"
)

// Events are the events `hook install` registers, in settings order.
var Events = []string{EventUserPromptSubmit, EventStop, EventPreCompact, EventSessionEnd}

// MaxInputBytes bounds the hook's stdin: a prompt can be a long paste, but
// not without limit.
const MaxInputBytes = 16 << 20

// InputDeadline bounds reading the hook's stdin, which Claude Code writes
// and closes at once.
const InputDeadline = 500 * time.Millisecond

// Grace is how long a run may overrun its deadline before the hook stops
// waiting for it: work already cancelled usually returns at once.
const Grace = 150 * time.Millisecond

// ErrNoWorkspace is returned when the state dir holds no workspace: the
// hook does nothing then, and records nothing.
var ErrNoWorkspace = errors.New("no workspace in the state dir")

// Input is the JSON Claude Code writes to a hook's stdin. Fields that only
// some events carry are empty for the others.
type Input struct {
	HookEventName  string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Prompt         string `json:"prompt"`           // UserPromptSubmit
	StopHookActive bool   `json:"stop_hook_active"` // Stop
	Trigger        string `json:"trigger"`          // PreCompact: "manual" or "auto"
	Reason         string `json:"reason"`           // SessionEnd: "clear", "logout", "prompt_input_exit", "other"
}

// ReadInput reads the hook's stdin (at most MaxInputBytes) and decodes it;
// the bytes are returned too, for a program that hands the event on.
func ReadInput(r io.Reader) (Input, []byte, error) {
	var in Input
	data, err := io.ReadAll(io.LimitReader(r, MaxInputBytes+1))
	if err != nil {
		return in, data, errcode.Wrap(errcode.IO, err, "read hook input")
	}
	if len(data) > MaxInputBytes {
		return in, data, errcode.Errorf(errcode.InvalidArgument, "hook input is larger than %d MiB", MaxInputBytes>>20)
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return in, data, errcode.Wrap(errcode.InvalidArgument, err, "hook input is not the JSON Claude Code sends")
	}
	if in.HookEventName == "" {
		return in, data, errcode.Errorf(errcode.InvalidArgument, "hook input has no hook_event_name")
	}
	return in, data, nil
}

// Known reports whether the hook acts on event.
func Known(event string) bool {
	for _, e := range Events {
		if e == event {
			return true
		}
	}
	return false
}

// HasWorkspace reports whether stateDir holds a workspace or
// conversations: only then may the hook open (and so create) anything
// there.
func HasWorkspace(stateDir string) bool {
	if stateDir == "" {
		return false
	}
	if fi, err := os.Stat(workspace.MemoryDir(stateDir)); err == nil && fi.IsDir() {
		return true
	}
	_, err := os.Stat(workspace.SessionsDB(stateDir))
	return err == nil
}

// Within runs fn with a context that expires after d and waits for it at
// most d plus Grace. A run that overruns is abandoned: the hook exits, and
// whatever the process was doing is safe to cut off (the store and the
// workspace are crash-safe). A panic is an error, not a crash; its stack
// goes to log.
func Within(d time.Duration, log io.Writer, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return Run(ctx, d+Grace, Grace, log, fn)
}

// Run runs fn with ctx and waits for it at most wait; over is how long
// past its context's deadline the run was given, for the message.
func Run(ctx context.Context, wait, over time.Duration, log io.Writer, fn func(context.Context) ([]byte, error)) ([]byte, error) {
	type result struct {
		out []byte
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				// The status keeps the one line; the stack goes to the log.
				fmt.Fprintf(log, "scriptorium hook: panic: %v\n%s", p, debug.Stack())
				r = result{err: errcode.Errorf(errcode.IO, "panic: %v", p)}
			}
			ch <- r
		}()
		r.out, r.err = fn(ctx)
	}()
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-timer.C:
		dl, _ := ctx.Deadline()
		return nil, errcode.Errorf(errcode.IO, "gave up %s after its deadline (%s); the daemon imports and writes what is left",
			over, dl.UTC().Format("15:04:05.000"))
	}
}

// promptOutput is the UserPromptSubmit answer Claude Code reads from stdout.
type promptOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// PromptOutput is what UserPromptSubmit prints for a recall's fenced text:
// nothing when there is nothing to recall.
func PromptOutput(text string) ([]byte, error) {
	if text == "" {
		return nil, nil
	}
	var out promptOutput
	out.HookSpecificOutput.HookEventName = EventUserPromptSubmit
	out.HookSpecificOutput.AdditionalContext = text
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the fence tags stay readable in Claude Code's transcript
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
