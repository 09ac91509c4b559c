package app

import (
	"context"
	"fmt"
	"time"

	"scriptorium/engine"
	"scriptorium/errcode"
	// forget registers its post-commit finish step at init: every process
	// that opens an engine must finish a forget a kill cut short, whether
	// or not it has a forget verb (the demo has none).
	_ "scriptorium/engine/forget"
	_ "scriptorium/engine/search" // the search service registers itself with the core
	"scriptorium/engine/writer"
	"scriptorium/hosts/local"
	"scriptorium/trust"
)

// Role is what a process does with the engine; it decides how the engine
// is opened.
type Role int

// The roles.
const (
	// Verb is a one-shot CLI verb: it reads only what its answer needs,
	// and waits for the write lock only when Options.Interactive says so
	// (otherwise LOCK_BUSY after 1 s).
	Verb Role = iota
	// TUI is the terminal application: the owner, waiting for the write
	// lock, with a long-lived snapshot.
	TUI
	// Serve is an engine of serve's HTTP API, one per tier
	// (Options.Tier): it waits for the write lock and lives as long as
	// the server (see OpenServer).
	Serve
	// MCP is the engine an MCP host writes through (Options.Tier): an
	// agent's update waits at most 1 s for the lock (LOCK_BUSY is
	// retryable) instead of hanging its tool call (see OpenMCP).
	MCP
	// Daemon is the scheduler: a background caller that lives until
	// stopped and answers the one-shot CLI's searches on the local socket.
	Daemon
	// Hook is an agent hook: a background caller within the hook's
	// deadline.
	Hook
	// mcpReader is an MCP host's reader (OpenMCP): the owner's, for the
	// read tools only, so it has nothing to distil.
	mcpReader
)

// String names the role, for messages.
func (r Role) String() string {
	switch r {
	case Verb:
		return "verb"
	case TUI:
		return "tui"
	case Serve:
		return "serve"
	case MCP:
		return "mcp"
	case Daemon:
		return "daemon"
	case Hook:
		return "hook"
	case mcpReader:
		return "mcp reader"
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// Options are what a caller may choose within its role. The zero value is
// the owner, background, with the real clock.
type Options struct {
	// Tier is the caller's authority for Verb, Serve and MCP; the other
	// roles are the owner's. Zero is the owner.
	Tier trust.Tier
	// Interactive makes a Verb wait for the write lock (update, promote,
	// sleep…); the other roles decide for themselves.
	Interactive bool
	// OnLockWait is called when the wait for the write lock begins, so
	// the caller can say so.
	OnLockWait func()
	// Holder names the process in the lock-holder record while it holds
	// the write lock ("scriptorium update"); "" is the program's name.
	Holder string
	// Now is the clock (tests, the demo's fixed time); nil is time.Now.
	Now func() time.Time
	// CrashAt is a test-only crash point inside install
	// (engine.Options.CrashAt); empty in production.
	CrashAt string
}

// Engine is an engine opened for a role, with what runs beside it for that
// role (the local socket of the Daemon and the TUI). Close stops both.
type Engine struct {
	*engine.Engine
	socket *local.Server
}

// SocketWaits reports that the engine's role serves the local socket but
// another process of the workspace holds it: this one takes over when that
// one exits (hosts/local), and a front end says so.
func (e *Engine) SocketWaits() bool { return e.socket != nil && !e.socket.Serving() }

// Close stops what runs beside the engine, then closes the engine.
func (e *Engine) Close() error {
	e.socket.Close() // nil-safe
	return e.Engine.Close()
}

// Open opens the engine of the state dir stateDir for role. The Daemon
// and the TUI start answering searches and recalls on the workspace's
// local socket, with ctx, until Close: while the owner has the TUI open,
// the CLI's searches and the agents' hooks are answered from its
// long-lived engine instead of each reading the workspace.
func Open(ctx context.Context, stateDir string, role Role, opts Options) (*Engine, error) {
	limitMemory(role)
	e, err := engine.Open(ctx, engineOptions(stateDir, role, opts))
	if err != nil {
		return nil, err
	}
	out := &Engine{Engine: e}
	if role == Daemon || role == TUI {
		out.socket = local.Serve(ctx, e)
	}
	return out, nil
}

// Opener is Open bound to a state dir, a role and options, for a host that
// opens its engines on demand (the hook). It is for roles that run nothing
// beside the engine: not the Daemon or the TUI.
func Opener(stateDir string, role Role, opts Options) func(context.Context) (*engine.Engine, error) {
	return func(ctx context.Context) (*engine.Engine, error) {
		if role == Daemon || role == TUI {
			return nil, errcode.Errorf(errcode.InvalidArgument, "app.Opener: the %s's engine runs its socket beside it; use Open", role)
		}
		e, err := Open(ctx, stateDir, role, opts)
		if err != nil {
			return nil, err
		}
		return e.Engine, nil
	}
}

// engineOptions is the one table of how each role opens the engine.
func engineOptions(stateDir string, role Role, opts Options) engine.Options {
	o := engine.Options{StateDir: stateDir, Tier: opts.Tier, Now: opts.Now, Holder: opts.Holder,
		OnLockWait: opts.OnLockWait, CrashAt: opts.CrashAt, Distiller: writer.Distiller{}}
	switch role {
	case Verb:
		o.Interactive = opts.Interactive
	case TUI:
		o.Tier, o.Interactive, o.LongLived = trust.Owner, true, true
	case Serve:
		o.Interactive, o.LongLived = true, true
	case MCP:
		o.LongLived = true
	case Daemon:
		o.Tier, o.LongLived = trust.Owner, true
	case Hook:
		o.Tier = trust.Owner
	case mcpReader:
		o.Tier, o.LongLived, o.Distiller = trust.Owner, true, nil
	}
	return o
}
