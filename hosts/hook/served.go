package hook

import (
	"io"

	"scriptorium/engine"
)

// Served runs one Claude Code hook event for a long-lived process (serve's
// HTTP hook endpoint, hosts/hookhttp) with that process's open engine e:
// the same reading, checks, deadline, status records and printed bytes as
// ClaudeCode, the recall asked of e (never the socket, never a second
// engine; e stays open). Only UserPromptSubmit is answered: a transcript
// event names a file to import as the owner's, which a request any local
// process can send must not choose, so it is refused and recorded.
// opts.Open is not used.
func Served(stdin io.Reader, stdout io.Writer, e *engine.Engine, opts Options) error {
	opts.resident = e
	opts.Open = nil
	return ClaudeCode(stdin, stdout, opts)
}
