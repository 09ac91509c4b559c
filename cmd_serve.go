package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"scriptorium/app"
	"scriptorium/errcode"
	"scriptorium/hosts/httpapi"
	mcphost "scriptorium/hosts/mcp"
)

// Stopping serve: the requests in flight get serveDrain to finish; then
// whatever still holds a connection is cut. An MCP client's standalone
// SSE stream never goes idle, so without the cut a SIGTERM waited out the
// whole drain and the process hit the signal's grace, exiting 143 with
// its engines unclosed. The grace is the drain plus room to close them.
const (
	serveDrain = 3 * time.Second
	serveGrace = serveDrain + 7*time.Second
)

// runServe serves the engine over a local HTTP API under /api/memory/.
// It listens on loopback unless --addr says otherwise.
func runServe(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	addr := inv.flag("addr")
	if addr == "" {
		addr = "127.0.0.1:8765"
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	// A reading verb: a mistyped --state must not leave a workspace behind.
	if err := inv.requireWorkspace(dir); err != nil {
		return err
	}
	ctx, cancel := signalContextWith(serveGrace, os.Exit)
	defer cancel()
	// The API's engines stay open for the process, one per tier (the
	// owner's, and the paired one of ?as=paired), opened on first use;
	// each reads again only what another process changed. MCP's engines
	// are opened now, as for `mcp`, which refuses memory switched off
	// before anything listens; one-shot CLI searches of this workspace
	// ask this process (hosts/local). Close waits for the requests in
	// flight (below).
	server, err := app.OpenServer(ctx, dir, mcphost.Options{Version: serverVersion, OwnerTools: inv.bool("owner-tools")})
	if err != nil {
		return err
	}
	defer server.Close()
	if server.SocketWaits() {
		fmt.Fprintln(inv.stderr, "scriptorium: another serve or daemon of this workspace answers one-shot searches on its socket; this one takes over when that one exits")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "listen on %s", addr)
	}
	srv := httpapi.NewServer(server.Handler(inv.stderr))
	fmt.Fprintf(inv.stderr, "scriptorium: serving /api/memory/, MCP at /mcp and Claude Code's prompt hook at /hooks/claude-code on http://%s\n", ln.Addr())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), serveDrain)
		defer done()
		if srv.Shutdown(shutdown) != nil {
			_ = srv.Close()
		}
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return errcode.Wrap(errcode.IO, err, "serve")
	}
	// Serve returns as soon as shutdown begins; the engines are closed
	// (deferred above) only once the requests in flight are done.
	<-stopped
	return nil
}
