// Command scriptorium-hook is a small client for Claude Code's hook: the
// command `scriptorium hook install claude-code` writes when it finds this
// program beside the CLI. A prompt (UserPromptSubmit) that a long-lived
// process of the workspace (serve, the daemon, the TUI) answers on the
// local socket costs this program's start, a few milliseconds, instead of
// the CLI's, which links the whole engine (BENCHMARKS.md, issue 26). The
// answer is asked in the name of the CLI's own build, so it is the one
// `scriptorium hook claude-code` would print, and it is printed through
// the same code (hosts/hook/hookio).
//
// Everything else — another event, no socket or no clean answer, a state
// dir to tighten, a bad argument — is the CLI's: this program execs
// `scriptorium hook claude-code` with the same arguments, in the same
// process (so the transcript events' deadline still counts from its
// start), and hands it the event it read on stdin. A prompt handed on
// after the socket's 1 s wait ran out has that second on top of the CLI's
// own 3 s; without a socket it is handed on at once. The CLI is the `scriptorium` beside this
// program, else the one on $PATH.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"scriptorium/engine/result/prompt"
	"scriptorium/errcode"
	"scriptorium/hosts/hook/hookio"
	"scriptorium/hosts/local/client"
	"scriptorium/workspace"
)

// residentWait bounds the wait for the socket's answer, as the CLI's hook
// bounds its own (hosts/hook); a prompt handed on after it ran out gets
// the CLI's whole prompt deadline on top.
const residentWait = time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run answers the hook from the socket, or hands it to the CLI (exec; it
// returns only when that failed). Its status is always 0: a hook failure
// must never block a prompt.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cli, err := findCLI()
	if err != nil {
		fmt.Fprintf(stderr, "scriptorium-hook: %v\n", err)
		return 0
	}
	handOn := func(data []byte) int {
		err := execCLI(cli, args, data)
		fmt.Fprintf(stderr, "scriptorium-hook: run %s: %v\n", cli, err)
		return 0
	}
	state, ok := stateDir(args)
	if !ok || !quick(state) {
		return handOn(nil)
	}
	// The event, read as the CLI reads it: bounded in size and time. in is
	// read only after a nil error, when the read has returned (Within hands
	// back its result over a channel), so it is parsed once.
	var in hookio.Input
	data, err := hookio.Within(hookio.InputDeadline, stderr, func(context.Context) ([]byte, error) {
		read, data, err := hookio.ReadInput(stdin)
		in = read
		return data, err
	})
	if err != nil && (data == nil || errcode.As(err).Code == errcode.IO) {
		// Not read whole (cut off, a read error): nothing to hand on, so
		// this is recorded here as the CLI records it.
		fail(stderr, state, "", err)
		return 0
	}
	if err != nil {
		return handOn(data) // read whole but not an event: the CLI says why
	}
	if in.HookEventName != hookio.EventUserPromptSubmit {
		return handOn(data)
	}
	// Asked in the name of the CLI's build: only a server of that build
	// answers, with what the CLI would print. No socket, no reading of the
	// CLI's file for its build: the CLI answers at once.
	mem := workspace.MemoryDir(state)
	sock := client.SocketPath(mem)
	if !client.OwnSocket(sock) {
		return handOn(data)
	}
	// The CLI's build is remembered beside the socket while the CLI's file
	// stays the same one.
	build := client.BuildOfCached(cli, filepath.Dir(sock))
	res, ok := client.Recall(mem, build, prompt.Request{Prompt: in.Prompt, Cwd: in.Cwd}, residentWait)
	if !ok {
		return handOn(data)
	}
	out, err := hookio.PromptOutput(res.Text)
	if err == nil && len(out) > 0 {
		_, err = stdout.Write(out)
	}
	if err != nil {
		fail(stderr, state, in.HookEventName, err)
		return 0
	}
	prompt.RecordHook(state, time.Now(), in.HookEventName, nil)
	return 0
}

// fail says a failure on stderr and records it, as the CLI's hook does.
func fail(stderr io.Writer, state, event string, err error) {
	name := event
	if name == "" {
		name = "(unknown event)"
	}
	fmt.Fprintf(stderr, "scriptorium hook %s: %v\n", name, err)
	prompt.RecordHook(state, time.Now(), event, err)
}

// quick reports whether the state dir is one this program may answer for
// without the CLI: it holds a workspace, and no part of it is open to
// other users (the CLI tightens such a dir, and says so, first).
func quick(state string) bool {
	if !hookio.HasWorkspace(state) {
		return false
	}
	mem := workspace.MemoryDir(state)
	for _, p := range []string{state, mem, filepath.Join(mem, workspace.MetaDir)} {
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
			return false
		}
	}
	return true
}

// findCLI is the scriptorium beside this program, else the one on $PATH.
func findCLI() (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "scriptorium")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("scriptorium")
	if err != nil {
		return "", errors.New("no scriptorium beside this program or on $PATH")
	}
	return filepath.Abs(p)
}

// stateDir is the state dir args name, resolved as the CLI resolves it;
// ok is false for arguments this program leaves to the CLI: anything but
// `claude-code` with --state DIR or --profile NAME.
func stateDir(args []string) (string, bool) {
	if len(args) == 0 || args[0] != "claude-code" {
		return "", false
	}
	var state, profile string
	for i := 1; i < len(args); i++ {
		name, value, has := strings.Cut(args[i], "=")
		if name != "--state" && name != "--profile" {
			return "", false
		}
		if !has {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			value = args[i]
		}
		if name == "--state" {
			state = value
		} else {
			profile = value
		}
	}
	home, _ := os.UserHomeDir()
	dir, err := workspace.ResolveStateDir(state, profile, os.Getenv, home)
	return dir, err == nil
}
