// Package app is the composition root: the one place that opens the engine
// and wires what runs with it for what a process does (its Role). The CLI's
// verbs, the TUI, serve, mcp, the daemon, the agent hook and the demo ask it
// for an engine instead of choosing engine.Options by hand, so the choices
// are made once: which roles wait for the write lock, which keep a
// long-lived snapshot, that promotion reaches the writer (writer.Distiller),
// and that the long-lived processes answer the one-shot CLI's searches on
// the workspace's local socket (hosts/local).
//
// Nothing below the front ends imports app: a host that opens engines on
// demand (the hook, the HTTP API) is handed an opener.
package app
