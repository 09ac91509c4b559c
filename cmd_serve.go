package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/writer"
	"scriptorium/hosts/httpapi"
	"scriptorium/hosts/local"
	mcphost "scriptorium/hosts/mcp"
	"scriptorium/trust"
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
	ctx, cancel := signalContext()
	defer cancel()
	// The API's engines stay open for the process, one per tier (the
	// owner's, and the paired one of ?as=paired), opened on first use;
	// each reads again only what another process changed.
	api := httpapi.NewEngines(dir, func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		return engine.Open(ctx, engine.Options{StateDir: dir, Tier: tier, Interactive: true, Distiller: writer.Distiller{}, LongLived: true})
	})
	defer api.Close()
	// Refuse before listening when memory is off, so nothing is touched.
	// The MCP endpoint's engines are opened once, as for `mcp`.
	eng, opts, closeMCP, err := inv.openMCP(ctx)
	if err != nil {
		return err
	}
	defer closeMCP()
	// One-shot CLI searches of this workspace ask this process (hosts/local).
	sock := local.Serve(ctx, opts.Reader) // one-shot CLI searches ask this process
	defer sock.Close()
	if sock != nil && !sock.Serving() {
		fmt.Fprintln(inv.stderr, "scriptorium: another serve or daemon of this workspace answers one-shot searches on its socket; this one takes over when that one exits")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return engine.Wrap(engine.CodeIO, err, "listen on %s", addr)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/memory/", httpapi.NewShared(api))
	mux.Handle("/mcp", mcphost.HTTPHandler(eng, opts))
	srv := httpapi.NewServer(mux)
	fmt.Fprintf(inv.stderr, "scriptorium: serving /api/memory/ and MCP at /mcp on http://%s\n", ln.Addr())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return engine.Wrap(engine.CodeIO, err, "serve")
	}
	// Serve returns as soon as shutdown begins; the engines are closed
	// (deferred above) only once the requests in flight are done.
	<-stopped
	return nil
}
