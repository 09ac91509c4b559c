package engine

// A long-lived engine answers many calls between changes, and a stat walk
// per call (one lstat per memory file) was most of what a held search
// cost beyond the query. It watches topics/ and sources/ with inotify
// instead (workspace.TreeWatch): before each read it drains the kernel's
// event queue without blocking, and a snapshot walked at a generation no
// event has moved since is reused without a walk. The drain is
// synchronous, so a change that completed before the call is always seen
// (the kernel queues the event inside the write). The watch is trusted
// only where the kernel sees every change: not on network or FUSE
// filesystems (where the workspace already warns that locks are
// unreliable), not after a queue overflow or a watched root going away,
// and not off Linux; then every call walks as before. A snapshot that holds
// a racy file (changed within 2 s of its read) is never reused unwalked.

// hasRacy reports whether a snapshot holds a file read while racy.
func (s *snapshot) hasRacy() bool {
	for _, tf := range s.topics {
		if tf.racy || tf.sig == (fileSig{}) {
			return true
		}
	}
	for _, a := range s.archives {
		if a.racy || a.sig == (fileSig{}) {
			return true
		}
	}
	return false
}

// startWatch starts the change watch of a long-lived engine, if it can
// be trusted here.
func (e *Engine) startWatch() {
	if e.ws.LockWarning() != "" {
		return // a network or FUSE filesystem: inotify misses remote changes
	}
	e.watch.Start(e.ws.Root(), "topics", "sources")
}
