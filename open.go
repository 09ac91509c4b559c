package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"scriptorium/app"
	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/errcode"
	mcphost "scriptorium/hosts/mcp"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// Opening the workspace for a verb: the state dir, the refusal of a reading
// verb without a workspace, and the engines of the composition root (package
// app) as the verbs use them.

// stateDir resolves --state, $SCRIPTORIUM_STATE, --profile and the home dir.
func (inv *invocation) stateDir() (string, error) {
	home, _ := os.UserHomeDir()
	dir, err := workspace.ResolveStateDir(inv.flag("state"), inv.flag("profile"), os.Getenv, home)
	if err != nil {
		return "", usagef("%v", err)
	}
	// A memory is private: a state dir open to other users is tightened
	// the first time a verb reaches for it, and the owner is told.
	// Memory switched off means nothing on disk is touched (SPEC §11).
	if !inv.tightened {
		inv.tightened = true
		if cfg, err := config.Load(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
			return dir, nil
		}
		notice, err := workspace.TightenStateDir(dir)
		if notice != "" {
			fmt.Fprintf(inv.stderr, "scriptorium: notice: %s\n", notice)
		}
		if err != nil {
			// The memory is still usable: say so, and go on.
			fmt.Fprintf(inv.stderr, "scriptorium: notice: could not make the state dir private: %v\n", err)
		}
	}
	return dir, nil
}

// requireWorkspace refuses a reading verb on a state dir without memory/.
// A config that switches memory off still answers MEMORY_DISABLED first.
func (inv *invocation) requireWorkspace(dir string) error {
	if inv.verb == nil || !inv.verb.reads {
		return nil
	}
	if cfg, err := config.Load(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
		return errcode.ErrDisabled
	}
	mem := workspace.MemoryDir(dir)
	if fi, err := os.Stat(mem); err == nil && fi.IsDir() {
		return nil
	}
	return errcode.Errorf(errcode.NotFound, "no workspace at %s (check --state; `scriptorium init %s` creates one)", mem, dir)
}

// open opens the engine for this invocation, as a one-shot verb (package
// app, the composition root). Interactive verbs wait for the write lock and
// say so on stderr.
func (inv *invocation) open(ctx context.Context, interactive bool, tier trust.Tier) (*app.Engine, error) {
	dir, err := inv.stateDir()
	if err != nil {
		return nil, err
	}
	if err := inv.requireWorkspace(dir); err != nil {
		return nil, err
	}
	return app.Open(ctx, dir, app.Verb, inv.openOptions(dir, interactive, tier))
}

// openOptions are the engine options of this invocation: its tier, whether
// it waits for the lock, and the lock-wait notice.
func (inv *invocation) openOptions(dir string, interactive bool, tier trust.Tier) app.Options {
	return app.Options{Tier: tier, Interactive: interactive, Holder: "scriptorium " + inv.verb.name,
		OnLockWait: func() {
			who := "another writer"
			if h, ok := workspace.ReadLockHolder(workspace.MemoryDir(dir)); ok {
				who = h
			}
			fmt.Fprintf(inv.stderr, "scriptorium: waiting for the write lock held by %s… (ctrl+c cancels)\n", who)
		},
		CrashAt: os.Getenv("SCRIPTORIUM_TEST_CRASH_AT"),
	}
}

// signalGrace is how long a verb has, once SIGINT or SIGTERM cancelled its
// context, to stop on its own before the process exits as the signal would
// have ended it. Work that does not look at the context must not keep a
// terminated process alive: a one-shot search whose first index build was
// in its final merges ran on for minutes after a SIGTERM (issue 26). Every
// write is crash-safe (an install rolls forward or back, a build is staged
// beside the index), so the exit is as safe as a SIGKILL, and kinder.
const signalGrace = 5 * time.Second

// signalContext is cancelled on SIGINT/SIGTERM so a waiting verb stops
// cleanly; a second signal, or signalGrace without the verb done, exits.
func signalContext() (context.Context, context.CancelFunc) {
	return signalContextWith(signalGrace, os.Exit)
}

// signalContextWith is signalContext with its grace and exit given.
func signalContextWith(grace time.Duration, exit func(code int)) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		cancel()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done: // the verb stopped in time
			return
		case <-sigs:
		case <-t.C:
		}
		code := 1
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		exit(code)
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(sigs)
			close(done)
			cancel()
		})
	}
}

// withEngine runs fn on an open owner engine.
func (inv *invocation) withEngine(interactive bool, fn func(ctx context.Context, e *engine.Engine) error) error {
	ctx, cancel := signalContext()
	defer cancel()
	e, err := inv.open(ctx, interactive, trust.Owner)
	if err != nil {
		return err
	}
	defer e.Close()
	return fn(ctx, e.Engine)
}

// initResult is what `init` reports.
type initResult struct {
	State       string `json:"state"`
	WorkspaceID string `json:"workspace_id"`
	Revision    int64  `json:"revision"`
	Created     bool   `json:"created"`
}

// initWorkspace opens (creating) the workspace of dir.
func initWorkspace(ctx context.Context, dir string) (initResult, error) {
	e, err := app.Open(ctx, dir, app.Verb, app.Options{Tier: trust.Owner, Interactive: true})
	if err != nil {
		return initResult{}, err
	}
	defer e.Close()
	rev, err := e.Revision()
	if err != nil {
		return initResult{}, err
	}
	return initResult{State: dir, WorkspaceID: e.WorkspaceID(), Revision: rev}, nil
}

// serverVersion is what `mcp` and `serve` report to MCP clients.
const serverVersion = "0.3.0"

// openMCP opens the engines an MCP host serves from, once for the process
// (app.OpenMCP): the write engine at the paired tier (owner only with
// --owner-tools) and an owner-tier reader for the read tools.
func (inv *invocation) openMCP(ctx context.Context) (*app.MCPEngines, error) {
	dir, err := inv.stateDir()
	if err != nil {
		return nil, err
	}
	// A reading verb: a mistyped --state must not leave a workspace behind.
	if err := inv.requireWorkspace(dir); err != nil {
		return nil, err
	}
	return app.OpenMCP(ctx, dir, mcphost.Options{Version: serverVersion, OwnerTools: inv.bool("owner-tools")})
}
