package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"scriptorium/engine/config"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/codex"
	"scriptorium/workspace"
)

// CodexTurnComplete is the type of the notification Codex CLI sends its
// notify program when the agent finishes a turn; it sends no other kind
// today, and the hook ignores any other.
const CodexTurnComplete = "agent-turn-complete"

// CodexNotification is the JSON Codex CLI passes to its notify program
// (`notify = [...]` in ~/.codex/config.toml) as the program's last argument
// (codex-rs/core/src/user_notification.rs). Codex runs the program and
// does not wait for it.
type CodexNotification struct {
	Type                 string   `json:"type"`
	ThreadID             string   `json:"thread-id"` // the session id, which ends the rollout's file name
	TurnID               string   `json:"turn-id"`
	Cwd                  string   `json:"cwd"`
	InputMessages        []string `json:"input-messages"`
	LastAssistantMessage *string  `json:"last-assistant-message"`
}

// DefaultCodexDeadline bounds one Codex notify run. Codex does not wait
// for its notify program, so the bound only keeps a slow model from
// piling up runs: what is left the daemon's idle watcher writes.
const DefaultCodexDeadline = 20 * time.Second

// CodexOptions configures one Codex notify run.
type CodexOptions struct {
	Options
	// CodexHome is Codex's home, which holds sessions/; "" means
	// $CODEX_HOME, else ~/.codex.
	CodexHome string
	// Deadline bounds the run; zero means DefaultCodexDeadline.
	Deadline time.Duration
}

// validThreadID reports what a thread id may be: Codex's are UUIDs.
// Anything else never reaches a file name pattern. It is
// ^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$ as a loop: that regexp's bounded
// repetition compiled to a large program in every process's init (perf:
// a fifth of the CLI's own init work).
func validThreadID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !alnum && (i == 0 || c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// Codex runs the hook for one Codex notification (the JSON Codex passes as
// the last argument): on agent-turn-complete it finds the session's
// rollout under CodexHome/sessions, imports it through engine/importer (a
// grown rollout adds only its new turns) and runs the writer's threshold
// pass for the session, within the deadline. Like ClaudeCode it never
// fails the caller: the returned error is for logs and tests, recorded in
// the hook status file already.
func Codex(arg string, opts CodexOptions) error {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultCodexDeadline
	}
	if !hasWorkspace(opts.StateDir) {
		fmt.Fprintf(opts.Log, "scriptorium hook codex: no workspace in %s; doing nothing\n", opts.StateDir)
		return ErrNoWorkspace
	}
	const event = "codex " + CodexTurnComplete
	var n CodexNotification
	if len(arg) > maxInputBytes {
		err := errcode.Errorf(errcode.InvalidArgument, "the Codex notification is larger than %d MiB", maxInputBytes>>20)
		fail(opts.Options, event, err)
		return err
	}
	if err := json.Unmarshal([]byte(arg), &n); err != nil {
		err = errcode.Wrap(errcode.InvalidArgument, err, "the argument is not the JSON Codex's notify sends")
		fail(opts.Options, event, err)
		return err
	}
	if n.Type != CodexTurnComplete {
		return nil // a notification the hook does not act on
	}
	cfg, err := config.Load(workspace.ConfigPath(opts.StateDir))
	if err != nil {
		fail(opts.Options, event, err)
		return err
	}
	if cfg.Disabled() {
		return nil
	}
	_, err = within(opts.Deadline, opts.Log, func(ctx context.Context) ([]byte, error) {
		return nil, codexTurn(ctx, n, opts)
	})
	if err != nil {
		fail(opts.Options, event, err)
		return err
	}
	recordStatus(opts.Options, event, nil)
	return nil
}

// codexTurn imports the notified session's rollout and runs the writer's
// threshold pass for it.
func codexTurn(ctx context.Context, n CodexNotification, opts CodexOptions) error {
	if !validThreadID(n.ThreadID) {
		return errcode.Errorf(errcode.InvalidArgument, "thread-id %q is not a Codex session id", n.ThreadID)
	}
	home, err := codexHome(opts.CodexHome)
	if err != nil {
		return err
	}
	path, err := FindRollout(home, n.ThreadID)
	if err != nil {
		return err
	}
	sessions, err := importFile(ctx, path, transcript.FormatCodex, opts.StateDir)
	if err != nil {
		return err
	}
	if len(sessions) == 0 {
		return nil // a rollout with no turn yet: nothing is owed
	}
	if ctx.Err() != nil {
		fmt.Fprintf(opts.Log, "scriptorium hook codex: imported; no time left for the writer, the daemon runs it\n")
		return nil
	}
	e, err := openEngine(ctx, opts.Options)
	if err != nil {
		return err
	}
	defer e.Close()
	for _, s := range sessions {
		_, err := writer.Write(ctx, e, writer.WriteOptions{Session: s, Provider: codex.Provider})
		switch {
		case err == nil, errcode.As(err).Code == errcode.NotFound:
		case ctx.Err() != nil:
			fmt.Fprintf(opts.Log, "scriptorium hook codex: the writer did not finish in time; the daemon runs it\n")
			return nil
		default:
			return err
		}
	}
	return nil
}

// codexHome is Codex's home: dir, else $CODEX_HOME, else ~/.codex.
func codexHome(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	if env := os.Getenv("CODEX_HOME"); env != "" {
		return env, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errcode.Wrap(errcode.IO, err, "find Codex's home (set CODEX_HOME)")
	}
	return filepath.Join(home, ".codex"), nil
}

// CodexHome is Codex's home as the hook finds it: $CODEX_HOME, else
// ~/.codex.
func CodexHome() (string, error) { return codexHome("") }

// FindRollout finds the rollout of session id under home:
// sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, newest day first (a
// resumed session keeps the file of the day it began), then
// archived_sessions/. NOT_FOUND names where it looked.
func FindRollout(home, id string) (string, error) {
	if !validThreadID(id) {
		return "", errcode.Errorf(errcode.InvalidArgument, "%q is not a Codex session id", id)
	}
	suffix := "-" + id + ".jsonl"
	match := func(dir string) string {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return ""
		}
		for _, e := range entries {
			if name := e.Name(); e.Type().IsRegular() && len(name) > len(suffix) && name[:8] == "rollout-" && name[len(name)-len(suffix):] == suffix {
				return filepath.Join(dir, name)
			}
		}
		return ""
	}
	root := filepath.Join(home, "sessions")
	for _, y := range subdirsDesc(root) {
		for _, m := range subdirsDesc(y) {
			for _, d := range subdirsDesc(m) {
				if p := match(d); p != "" {
					return p, nil
				}
			}
		}
	}
	if p := match(root); p != "" { // rollouts of the oldest versions lay flat
		return p, nil
	}
	if p := match(filepath.Join(home, "archived_sessions")); p != "" {
		return p, nil
	}
	return "", errcode.Errorf(errcode.NotFound, "no rollout of Codex session %s under %s (rollout-*%s)", id, root, suffix)
}

// subdirsDesc lists the directories in dir, in reverse name order (the
// newest date first).
func subdirsDesc(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(out)))
	return out
}
