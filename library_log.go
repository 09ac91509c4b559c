package main

import (
	"io"
	"log"

	"scriptorium/workspace"
)

// routeLibraryLog sends Go's default logger, which bleve writes to, to the
// workspace's .scriptorium/runtime/library.log for the rest of the verb: a
// library's line on stderr lands on whatever terminal shares it, a TUI's
// screen included. restore puts the previous output back.
func routeLibraryLog(inv *invocation) (restore func()) {
	prev := log.Writer()
	dir, err := inv.stateDir()
	if err != nil {
		log.SetOutput(io.Discard)
		return func() { log.SetOutput(prev) }
	}
	l := workspace.NewRuntimeLog(workspace.MemoryDir(dir), workspace.LibraryLogName)
	log.SetOutput(l)
	return func() {
		log.SetOutput(prev)
		_ = l.Close()
	}
}
