package app

import (
	"context"
	"io"
	"net/http"

	"scriptorium/engine"
	"scriptorium/hosts/hookhttp"
	"scriptorium/hosts/httpapi"
	"scriptorium/hosts/local"
	mcphost "scriptorium/hosts/mcp"
	"scriptorium/trust"
)

// MCPEngines are the engines an MCP host serves from, opened once for the
// process: the write engine (Role MCP) at the paired tier, or the owner's
// with OwnerTools, and an owner-tier reader for the read tools, which the
// host filters so nothing pending leaves (the trust table lets paired
// callers read nothing but status).
type MCPEngines struct {
	// Engine is the write engine.
	Engine *engine.Engine
	// Options are the host's options, with Reader set.
	Options mcphost.Options
}

// OpenMCP opens the engines of an MCP host of stateDir; opts gives the
// version and whether the client has the owner's tools.
func OpenMCP(ctx context.Context, stateDir string, opts mcphost.Options) (*MCPEngines, error) {
	tier := trust.Paired
	if opts.OwnerTools {
		tier = trust.Owner
	}
	w, err := Open(ctx, stateDir, MCP, Options{Tier: tier})
	if err != nil {
		return nil, err
	}
	r, err := Open(ctx, stateDir, mcpReader, Options{})
	if err != nil {
		w.Close()
		return nil, err
	}
	opts.Reader = r.Engine
	return &MCPEngines{Engine: w.Engine, Options: opts}, nil
}

// Close closes both engines.
func (m *MCPEngines) Close() {
	m.Options.Reader.Close()
	m.Engine.Close()
}

// Server is what `serve` serves: the HTTP API under /api/memory/ (its
// engines, one per tier, opened on first use), MCP over streamable HTTP at
// /mcp, and the local socket, answered by MCP's reader.
type Server struct {
	api    *httpapi.Engines
	mcp    *MCPEngines
	socket *local.Server
}

// OpenServer opens what `serve` serves for stateDir; mcpOpts is as for
// OpenMCP. Memory switched off is refused here, before anything listens.
func OpenServer(ctx context.Context, stateDir string, mcpOpts mcphost.Options) (*Server, error) {
	api := httpapi.NewEngines(stateDir, func(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
		e, err := Open(ctx, stateDir, Serve, Options{Tier: tier})
		if err != nil {
			return nil, err
		}
		return e.Engine, nil
	})
	m, err := OpenMCP(ctx, stateDir, mcpOpts)
	if err != nil {
		api.Close()
		return nil, err
	}
	return &Server{api: api, mcp: m, socket: local.Serve(ctx, m.Options.Reader)}, nil
}

// Handler routes /api/memory/, /mcp and Claude Code's HTTP hook; hookLog
// gets the hook's failures, as the CLI hook's stderr does.
func (s *Server) Handler(hookLog io.Writer) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/memory/", httpapi.NewShared(s.api))
	mux.Handle("/mcp", mcphost.HTTPHandler(s.mcp.Engine, s.mcp.Options))
	// The prompt is recalled from the engine the socket answers from, so
	// a prompt asked over HTTP gets the socket's (and the CLI's) bytes.
	mux.Handle(hookhttp.Path, hookhttp.Handler(s.mcp.Options.Reader, hookhttp.Options{Log: hookLog}))
	return mux
}

// SocketWaits is Engine.SocketWaits for the server's socket.
func (s *Server) SocketWaits() bool { return s.socket != nil && !s.socket.Serving() }

// Close stops the socket and closes every engine; call it once the
// requests in flight are done.
func (s *Server) Close() {
	s.socket.Close()
	s.mcp.Close()
	s.api.Close()
}
