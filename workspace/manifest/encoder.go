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
// The changed entries are encoded into one buffer and the file joined into
// one sized for it: a fresh process encodes every entry once, and a
// buffer per line and a file grown by doubling were most of that (issue 26).
func (c *Encoder) Encode(m *Manifest, stampNS int64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	paths := m.Paths()
	next := make(map[string]encoded, len(paths))
	var head, fresh bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(header{Version: Version, Stamp: stampNS, Files: len(paths)})
	enc = json.NewEncoder(&fresh)
	enc.SetEscapeHTML(false)
	ends := make([]int, len(paths)) // for a changed entry, where its line ends in fresh; -1 reused
	size := head.Len()
	for i, p := range paths {
		e := m.entries[p]
		if old, ok := c.lines[p]; ok && sameEntry(&old.ent, e) {
			next[p], ends[i] = old, -1
			size += len(old.line)
			continue
		}
		_ = enc.Encode(e) // plain strings and numbers: cannot fail
		ends[i] = fresh.Len()
		// The slices are copied: a caller may reuse its entry's.
		cp := *e
		cp.Blocks, cp.Cites = slices.Clone(e.Blocks), slices.Clone(e.Cites)
		cp.Pending, cp.Foreign = slices.Clone(e.Pending), slices.Clone(e.Foreign)
		next[p] = encoded{ent: cp}
	}
	size += fresh.Len()
	all, start := fresh.Bytes(), 0
	out := append(make([]byte, 0, size), head.Bytes()...)
	for i, p := range paths {
		ec := next[p]
		if ends[i] >= 0 {
			ec.line = all[start:ends[i]:ends[i]] // capped: an append never writes into the next line
			start = ends[i]
			next[p] = ec
		}
		out = append(out, ec.line...)
	}
	c.lines = next
	return out
}

// Write is the package's Write through c.
func (c *Encoder) Write(tmpDir, path string, m *Manifest, now time.Time) {
	_ = workspace.WriteFileAtomic(tmpDir, path, c.Encode(m, now.UnixNano()))
}
