package main

import (
	"context"
	"errors"

	"scriptorium/engine"
	"scriptorium/engine/writer"
	mcphost "scriptorium/hosts/mcp"
	"scriptorium/trust"
)

// serverVersion is what `mcp` and `serve` report to MCP clients.
const serverVersion = "0.3.0"

// runMCP serves memory to an MCP client over stdio (the official go-sdk;
// package hosts/mcp). The client is an agent: it gets the paired tier
// unless the owner passes --owner-tools.
func runMCP(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	eng, opts, closeAll, err := inv.openMCP(ctx)
	if err != nil {
		return err // MEMORY_DISABLED and friends before speaking the protocol
	}
	defer closeAll()
	err = mcphost.ServeStdio(ctx, eng, opts, inv.stdin, inv.stdout)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// openMCP opens the engines an MCP host serves from, once for the
// process: the write engine at the paired tier (owner only with
// --owner-tools), and an owner-tier reader for the read tools, which the
// host filters so nothing pending leaves (the trust table lets paired
// callers read nothing but status).
func (inv *invocation) openMCP(ctx context.Context) (*engine.Engine, mcphost.Options, func(), error) {
	dir, err := inv.stateDir()
	if err != nil {
		return nil, mcphost.Options{}, nil, err
	}
	// A reading verb: a mistyped --state must not leave a workspace behind.
	if err := inv.requireWorkspace(dir); err != nil {
		return nil, mcphost.Options{}, nil, err
	}
	owner := inv.bool("owner-tools")
	tier := trust.Paired
	if owner {
		tier = trust.Owner
	}
	// An agent's update waits at most 1 s for the lock (LOCK_BUSY is
	// retryable) instead of hanging its tool call.
	w, err := engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier, Distiller: writer.Distiller{}, LongLived: true})
	if err != nil {
		return nil, mcphost.Options{}, nil, err
	}
	r, err := engine.Open(ctx, engine.Options{StateDir: dir, Tier: trust.Owner, LongLived: true})
	if err != nil {
		w.Close()
		return nil, mcphost.Options{}, nil, err
	}
	opts := mcphost.Options{Version: serverVersion, OwnerTools: owner, Reader: r}
	return w, opts, func() { r.Close(); w.Close() }, nil
}
