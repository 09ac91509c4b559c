package main

import (
	"context"
	"errors"

	mcphost "scriptorium/hosts/mcp"
)

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
