package main

import (
	"context"
	"errors"

	"scriptorium/app"
	mcphost "scriptorium/hosts/mcp"
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
	m, err := inv.openMCP(ctx)
	if err != nil {
		return err // MEMORY_DISABLED and friends before speaking the protocol
	}
	defer m.Close()
	err = mcphost.ServeStdio(ctx, m.Engine, m.Options, inv.stdin, inv.stdout)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

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
