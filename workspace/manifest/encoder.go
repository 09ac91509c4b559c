package manifest

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"scriptorium/workspace"
)

// Encoder renders manifests as Encode does, keeping each entry's line
// until the entry changes: after a writer batch only the files it wrote
// are encoded again, not every entry of a 100k-record workspace (issue
// 26). The zero value is ready; it is safe for concurrent use.
type Encoder struct {
	mu    sync.Mutex
	lines map[string]encoded // path → the entry last encoded and its line
}

type encoded struct {
	ent  Entry
	line []byte
}

// sameEntry reports whether a and b encode alike. Entries of an unchanged
// file share their slices (Cached.Get), which slices.Equal compares fast.
func sameEntry(a, b *Entry) bool {
	return a.Path == b.Path && a.Sig == b.Sig && a.SHA256 == b.SHA256 && a.Records == b.Records &&
		slices.Equal(a.Blocks, b.Blocks) && slices.Equal(a.Cites, b.Cites) &&
		slices.Equal(a.Pending, b.Pending) && slices.Equal(a.Foreign, b.Foreign)
}

// Encode is m.Encode(stampNS), reusing the lines of unchanged entries.
func (c *Encoder) Encode(m *Manifest, stampNS int64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	paths := m.Paths()
	next := make(map[string]encoded, len(paths))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(header{Version: Version, Stamp: stampNS, Files: len(paths)})
	out := buf.Bytes()
	for _, p := range paths {
		e := m.entries[p]
		old, ok := c.lines[p]
		if !ok || !sameEntry(&old.ent, e) {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(e) // plain strings and numbers: cannot fail
			// The slices are copied: a caller may reuse its entry's.
			cp := *e
			cp.Blocks, cp.Cites = slices.Clone(e.Blocks), slices.Clone(e.Cites)
			cp.Pending, cp.Foreign = slices.Clone(e.Pending), slices.Clone(e.Foreign)
			old = encoded{ent: cp, line: b.Bytes()}
		}
		next[p] = old
		out = append(out, old.line...)
	}
	c.lines = next
	return out
}

// Write is the package's Write through c.
func (c *Encoder) Write(tmpDir, path string, m *Manifest, now time.Time) {
	_ = workspace.WriteFileAtomic(tmpDir, path, c.Encode(m, now.UnixNano()))
}
