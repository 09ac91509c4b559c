package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"scriptorium/hosts/hook"
	"scriptorium/termsafe"
)

// hookDetails is `scriptorium hook --help`.
const hookDetails = `scriptorium hook claude-code
  The command Claude Code runs on its hook events; it reads the event's JSON on stdin.
    UserPromptSubmit  prints {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit",
                      "additionalContext":"<memory-context>…"}}: core.md and the best trusted
                      search hits for the prompt with their citations, within
                      [recall] budget_tokens (config.toml, default 1000)
    Stop, PreCompact, SessionEnd
                      import what the transcript gained and run the writer's normal
                      threshold pass, within 1.2 s; the daemon force-writes idle sessions
  It always exits 0 and never blocks a prompt: a failure (locked workspace, broken
  config.toml, bad input) prints nothing and is recorded for 'scriptorium status'.
  Without a workspace in the state dir it does nothing and creates nothing.

scriptorium hook install claude-code [--user|--project] [--print]
  Adds the hook for those four events to ~/.claude/settings.json (--user, the default)
  or ./.claude/settings.json (--project), keeping every other setting and hook; the old
  file is kept as settings.json.bak. Installing twice adds nothing. --print prints the
  JSON to add instead of writing it. --state or --profile is baked into the command.`

func runHook(inv *invocation) error {
	switch {
	case len(inv.positional) >= 1 && inv.positional[0] == "claude-code":
		return runClaudeCodeHook(inv)
	case len(inv.positional) == 2 && inv.positional[0] == "install" && inv.positional[1] == "claude-code":
		return runHookInstall(inv)
	}
	return usagef("usage: scriptorium hook claude-code | scriptorium hook install claude-code [--user|--project] [--print]")
}

// runClaudeCodeHook runs the hook. Whatever happens it returns nil, so the
// exit status is 0: Claude Code blocks a prompt on exit status 2 and shows
// other failures to the user, and a memory problem must never do either.
func runClaudeCodeHook(inv *invocation) error {
	dir, err := inv.stateDir()
	if err != nil {
		fmt.Fprintf(inv.stderr, "scriptorium hook: %v\n", err)
		return nil
	}
	_ = hook.ClaudeCode(inv.stdin, inv.stdout, hook.Options{StateDir: dir, Log: inv.stderr})
	return nil
}

func runHookInstall(inv *invocation) error {
	if inv.bool("user") && inv.bool("project") {
		return usagef("--user and --project exclude each other")
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this program's path: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	state := ""
	if inv.set["state"] || inv.set["profile"] {
		if state, err = inv.stateDir(); err != nil {
			return err
		}
		if state, err = filepath.Abs(state); err != nil {
			return err
		}
	}
	command := hook.Command(bin, state)
	if strings.Contains(bin, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(inv.stderr, "scriptorium: warning: %s is a temporary 'go run' build; install a built binary (go build -o scriptorium .)\n", bin)
	}
	if inv.bool("print") {
		_, err := inv.stdout.Write(hook.Snippet(command))
		return err
	}
	scope := "user"
	if inv.bool("project") {
		scope = "project"
	}
	home, _ := os.UserHomeDir()
	cwd, _ := os.Getwd()
	path, err := hook.SettingsPath(scope, home, cwd)
	if err != nil {
		return usagef("%v", err)
	}
	res, err := hook.Install(path, command)
	if err != nil {
		return err
	}
	return inv.emit(res, func(w io.Writer) {
		if len(res.Added) == 0 {
			fmt.Fprintf(w, "%s already runs %s on %s; nothing changed\n", path, command, strings.Join(hook.Events, ", "))
			return
		}
		fmt.Fprintf(w, "added %s to %s for %s", command, path, strings.Join(res.Added, ", "))
		if res.Backup != "" {
			fmt.Fprintf(w, " (old file: %s)", res.Backup)
		}
		fmt.Fprintln(w)
	})
}

// isClaudeCodeHook reports whether args run `hook claude-code`, judged
// before and apart from the flag parser: such a run must exit 0 even when
// its command line is broken (a hand-edited settings file).
func isClaudeCodeHook(args []string) bool {
	known := allFlags()
	var pos []string
	for i := 0; i < len(args) && len(pos) < 2; i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		if spec, ok := known[name]; ok && spec.value && !strings.Contains(name, "=") {
			i++ // the flag's value
		}
	}
	return len(pos) >= 2 && pos[0] == "hook" && pos[1] == "claude-code"
}

// runHookSafely is run for `hook claude-code`: a usage error is logged on
// stderr and still exits 0, with nothing on stdout.
func runHookSafely(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Claude Code may close our stdout before we answer (it gave up, or
	// the session ended): a write to it must fail with EPIPE, which the
	// hook records, not kill the process with SIGPIPE (exit 141).
	signal.Ignore(syscall.SIGPIPE)
	// The log is for a person; stdout is the JSON Claude Code reads.
	safeErr := termsafe.NewWriter(stderr)
	defer safeErr.Flush()
	inv, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(safeErr, "scriptorium hook: %v\n", err)
		return 0
	}
	inv.stdin, inv.stdout, inv.stderr = stdin, stdout, safeErr
	defer routeLibraryLog(inv)()
	_ = runClaudeCodeHook(inv)
	return 0
}
