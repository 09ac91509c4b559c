package local

import (
	"context"
	"time"

	"scriptorium/engine/config"
	"scriptorium/engine/recall"
	"scriptorium/engine/result"
	"scriptorium/hosts/local/client"
	"scriptorium/workspace"

	"scriptorium/engine"
)

// The prompt path asks the long-lived process too: a recall is a search
// and a read of the hit blocks, which a resident engine has in memory.

// recall answers a recall request from the server's engine.
func (s *Server) recall(ctx context.Context, e *engine.Engine, build string, req recall.Request) response {
	// The small hook client (cmd/scriptorium-hook) asks without reading
	// config.toml, which it does not link the parser for: answer only as
	// the one-shot CLI would, with the file valid and memory on. Anything
	// else is the CLI's to say (it records a broken file, keeps quiet when
	// memory is off).
	if cfg, err := config.Load(workspace.ConfigPath(e.StateDir())); err != nil || cfg.Disabled() {
		return response{}
	}
	res, err := recall.Recall(ctx, e, req)
	if err != nil {
		return response{}
	}
	s.answered.Add(1)
	return response{OK: true, Build: build, WorkspaceID: e.WorkspaceID(), Root: s.root, Recall: &res,
		Report: engine.SearchReport{Results: []result.SearchResult{}}}
}

// Recall asks the workspace's long-lived process, if there is one of this
// build, for a recall (client.Recall). ok is false whenever it did not
// answer; the caller then recalls itself.
func Recall(memDir string, req recall.Request, timeout time.Duration) (recall.Result, bool) {
	// No socket, no server: the one-shot prompt path does not read this
	// program's build (its ELF note, without VCS stamps) to learn it.
	if p := client.SocketPath(memDir); len(p) >= client.MaxPath || !client.OwnSocket(p) {
		return recall.Result{}, false
	}
	return client.Recall(memDir, thisBuild(), req, timeout)
}
