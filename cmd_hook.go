package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"scriptorium/app"
	"scriptorium/hosts/hook"
)

// hookDetails is `scriptorium hook --help`.
const hookDetails = `scriptorium hook claude-code
  The command Claude Code runs on its hook events; it reads the event's JSON on stdin.
    UserPromptSubmit  prints {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit",
                      "additionalContext":"<memory-context>…"}}: core.md and the best trusted
                      search hits for the prompt with their citations, within
                      [recall] budget_tokens (config.toml, default 1000)
    Stop, PreCompact, SessionEnd
                      import what the transcript gained since the offset stored for it
                      (at most 8 MiB an event; the daemon imports what is left) and run
                      the writer's normal threshold pass, the whole process within 1.2 s;
                      the daemon force-writes idle sessions
  It always exits 0 and never blocks a prompt: a failure (locked workspace, broken
  config.toml, bad input) prints nothing and is recorded for 'scriptorium status'.
  Without a workspace in the state dir it does nothing and creates nothing.

scriptorium hook install claude-code [--user|--project] [--print] [--http [URL]]
  Adds the hook for those four events to ~/.claude/settings.json (--user, the default)
  or ./.claude/settings.json (--project), keeping every other setting and hook; the old
  file is kept as settings.json.bak. Installing twice adds nothing. --print prints the
  JSON to add instead of writing it. --state or --profile is baked into the command.
  --http: UserPromptSubmit posts to a running 'scriptorium serve' instead (URL default
  http://127.0.0.1:8765/hooks/claude-code; no process per prompt); the other events stay
  commands. While serve is down a prompt goes on without memory. Installing without
  --http puts the command back.

scriptorium hook codex JSON
  Codex CLI's notify program: Codex runs it when the agent finishes a turn, with the
  notification {"type":"agent-turn-complete","thread-id",...} as the last argument. It
  finds the session's rollout (~/.codex/sessions/YYYY/MM/DD/rollout-*-<thread-id>.jsonl;
  $CODEX_HOME moves ~/.codex), imports what it gained and runs the writer's threshold
  pass, within 20 s. It always exits 0; failures are recorded for 'scriptorium status'.

scriptorium hook install codex [--print]
  Sets notify = ["<this binary>", "hook", "codex"] in ~/.codex/config.toml (or
  $CODEX_HOME/config.toml), keeping every other setting; the old file is kept as
  config.toml.bak. Codex runs one notify program: if another is set, nothing changes and
  the error says what to chain. Installing twice changes nothing. --print prints the line.

Gemini CLI sessions come in through 'scriptorium import ~/.gemini/tmp', or the daemon
  watches them: [import] watch = ["~/.gemini/tmp"] in config.toml.`

func runHook(inv *invocation) error {
	switch {
	case len(inv.positional) >= 1 && inv.positional[0] == "claude-code":
		return runClaudeCodeHook(inv)
	case len(inv.positional) >= 1 && inv.positional[0] == "codex":
		return runCodexHook(inv)
	case (len(inv.positional) == 2 || len(inv.positional) == 3 && inv.set["http"]) && inv.positional[0] == "install" && inv.positional[1] == "claude-code":
		return runHookInstall(inv)
	case len(inv.positional) == 2 && inv.positional[0] == "install" && inv.positional[1] == "codex":
		return runCodexInstall(inv)
	}
	return usagef("usage: scriptorium hook claude-code | hook codex JSON | hook install claude-code [--user|--project] [--print] [--http [URL]] | hook install codex [--print]")
}

// runCodexHook runs Codex's notify program. Whatever happens it returns
// nil: Codex does not wait for it, and a memory problem must never show up
// in the user's session.
func runCodexHook(inv *invocation) error {
	dir, err := inv.stateDir()
	if err != nil {
		fmt.Fprintf(inv.stderr, "scriptorium hook codex: %v\n", err)
		return nil
	}
	arg := ""
	if n := len(inv.positional); n >= 2 {
		arg = inv.positional[n-1] // Codex appends the notification last
	}
	_ = hook.Codex(arg, hook.CodexOptions{Options: hook.Options{StateDir: dir, Log: inv.stderr,
		Open: app.Opener(dir, app.Hook, app.Options{})}})
	return nil
}

// installBinary is this program's path for a hook to run, with a warning
// when it is a temporary 'go run' build, and the state dir to bake in
// ("" when none was chosen on the command line).
func installBinary(inv *invocation) (bin, state string, err error) {
	if bin, err = os.Executable(); err != nil {
		return "", "", fmt.Errorf("find this program's path: %w", err)
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	if inv.set["state"] || inv.set["profile"] {
		if state, err = inv.stateDir(); err != nil {
			return "", "", err
		}
		if state, err = filepath.Abs(state); err != nil {
			return "", "", err
		}
	}
	if strings.Contains(bin, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(inv.stderr, "scriptorium: warning: %s is a temporary 'go run' build; install a built binary (go build -o scriptorium .)\n", bin)
	}
	return bin, state, nil
}

// runCodexInstall sets Codex's notify program to this hook.
func runCodexInstall(inv *invocation) error {
	if inv.bool("user") || inv.bool("project") {
		return usagef("--user and --project are Claude Code's scopes; Codex has one config.toml ($CODEX_HOME or ~/.codex)")
	}
	if inv.set["http"] {
		return usagef("--http is Claude Code's: Codex runs its notify program only")
	}
	bin, state, err := installBinary(inv)
	if err != nil {
		return err
	}
	notify := hook.CodexNotify(bin, state)
	if inv.bool("print") {
		_, err := fmt.Fprintln(inv.stdout, hook.CodexNotifyLine(notify))
		return err
	}
	home, err := hook.CodexHome()
	if err != nil {
		return err
	}
	res, err := hook.InstallCodex(hook.CodexConfigPath(home), notify)
	if err != nil {
		return err
	}
	return inv.emit(res, func(w io.Writer) {
		if !res.Added {
			fmt.Fprintf(w, "%s already runs %s as its notify program; nothing changed\n", res.Path, hook.CodexNotifyLine(notify))
			return
		}
		fmt.Fprintf(w, "set %s in %s: Codex imports each turn as it ends", hook.CodexNotifyLine(notify), res.Path)
		if res.Backup != "" {
			fmt.Fprintf(w, " (old file: %s)", res.Backup)
		}
		fmt.Fprintln(w)
	})
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
	_ = hook.ClaudeCode(inv.stdin, inv.stdout, hook.Options{StateDir: dir, Log: inv.stderr, Start: hook.ProcessStart,
		Open: app.Opener(dir, app.Hook, app.Options{})})
	return nil
}

func runHookInstall(inv *invocation) error {
	if inv.bool("user") && inv.bool("project") {
		return usagef("--user and --project exclude each other")
	}
	postTo, err := hookURL(inv)
	if err != nil {
		return err
	}
	bin, state, err := installBinary(inv)
	if err != nil {
		return err
	}
	// The small client beside this binary answers a served prompt for a
	// fraction of this program's start (cmd/scriptorium-hook); the other
	// form, installed before, is replaced, never run twice.
	command, other := hook.Command(bin, state), hook.ClientCommand(filepath.Join(filepath.Dir(bin), hookClientName), state)
	if client := hookClient(bin); client != "" {
		command, other = other, command
	}
	plan := hook.Plan{Command: command, URL: postTo, Replaces: []string{other}}
	if inv.bool("print") {
		_, err := inv.stdout.Write(hook.Snippet(plan))
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
	res, err := hook.InstallPlan(path, plan)
	if err != nil {
		return err
	}
	return inv.emit(res, func(w io.Writer) {
		runs := command
		if postTo != "" {
			runs = fmt.Sprintf("%s (the prompt hook posting to %s, which scriptorium serve answers)", command, postTo)
		}
		if len(res.Added) == 0 {
			fmt.Fprintf(w, "%s already runs %s on %s; nothing changed\n", path, runs, strings.Join(hook.Events, ", "))
			return
		}
		fmt.Fprintf(w, "added %s to %s for %s", runs, path, strings.Join(res.Added, ", "))
		if res.Backup != "" {
			fmt.Fprintf(w, " (old file: %s)", res.Backup)
		}
		fmt.Fprintln(w)
	})
}

// defaultHookURL is serve's prompt hook at serve's default address.
const defaultHookURL = "http://127.0.0.1:8765" + hook.HTTPPath

// hookURL is the URL --http asks the prompt hook to post to ("" without
// the flag): --http=URL, --http URL (the third positional) or serve's
// default address. It must be serve's hook path on a loopback host, the
// only requests serve answers.
func hookURL(inv *invocation) (string, error) {
	if !inv.set["http"] {
		return "", nil
	}
	v := inv.flag("http")
	if b, err := strconv.ParseBool(v); err == nil {
		if !b {
			if len(inv.positional) == 3 {
				return "", usagef("--http=false takes no URL")
			}
			return "", nil
		}
		v = ""
	}
	if len(inv.positional) == 3 {
		if v != "" {
			return "", usagef("--http given two URLs")
		}
		v = inv.positional[2]
	}
	if v == "" {
		return defaultHookURL, nil
	}
	if u, err := url.Parse(v); err == nil && (u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == "" {
		u.Path = hook.HTTPPath // serve's address alone names its hook
		v = u.String()
	}
	if !hook.OurURL(v) {
		return "", usagef("--http takes serve's hook on this machine, http://127.0.0.1:PORT%s (got %q): serve answers only loopback hosts", hook.HTTPPath, v)
	}
	return v, nil
}

// hookClientName is the small hook client's program name
// (cmd/scriptorium-hook).
const hookClientName = "scriptorium-hook"

// hookClient is the small hook client beside bin, "" when there is none.
func hookClient(bin string) string {
	p := filepath.Join(filepath.Dir(bin), hookClientName)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
		return p
	}
	return ""
}
