// Package manifest is the persisted summary of a workspace's memory files,
// `.scriptorium/manifest.jsonl`: per file the signature it was read with
// (size, mtime, ctime, inode) and what the engine's reading verbs need of
// it without parsing it again (block ids, the archives its footnotes cite,
// pending and out-of-thread source-ids).
//
// The manifest is a cache and is never trusted blindly: an entry describes
// a file only while the file's signature is the recorded one, and an entry
// recorded while its file was "racy" (changed within a clock tick or so of
// the recording, when a second same-size edit would leave the signature as
// it was) also carries the content hash, which the reader must check. A
// file that does not read back exactly is dropped and the whole manifest
// is rebuilt from the files.
//
// The format is JSON lines: a header object, then one object per file in
// path order, so that a person can read and diff it.
package manifest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"scriptorium/workspace"
)

// FileName is the manifest's name under the workspace's .scriptorium/
// (spelled by workspace's layout).
const FileName = workspace.ManifestName

// Version is the format version; a manifest of another version is not
// read.
const Version = 1

// Sig is one version of a file as lstat sees it.
type Sig struct {
	Size    int64  `json:"size"`
	MtimeNS int64  `json:"mtime_ns"`
	CtimeNS int64  `json:"ctime_ns"`
	Ino     uint64 `json:"ino"`
}

// Entry is what the manifest keeps of one file.
type Entry struct {
	Path string `json:"path"` // slash path relative to the workspace root
	Sig
	// SHA256 is the hex content hash, recorded only for a racy file.
	SHA256 string `json:"sha256,omitempty"`

	// Topic files.
	Blocks []string `json:"blocks,omitempty"` // block ids, in file order
	Cites  []string `json:"cites,omitempty"`  // workspace paths of the archives its footnotes cite, sorted

	// Source archives.
	Records int      `json:"records,omitempty"`
	Pending []string `json:"pending,omitempty"` // source-ids of frames marked trust:pending
	Foreign []string `json:"foreign,omitempty"` // source-ids whose provider/thread is not this archive's
}

// header is the first line.
type header struct {
	Version int   `json:"version"`
	Stamp   int64 `json:"stamp"` // unix ns when it was written
	Files   int   `json:"files"`
}

// Manifest is the set of entries, by path.
type Manifest struct {
	entries map[string]*Entry
}

// New returns an empty manifest.
func New() *Manifest { return &Manifest{entries: map[string]*Entry{}} }

// Get returns the entry of a path, or nil.
func (m *Manifest) Get(p string) *Entry { return m.entries[p] }

// Put adds or replaces an entry.
func (m *Manifest) Put(e *Entry) { m.entries[e.Path] = e }

// Delete removes an entry.
func (m *Manifest) Delete(p string) { delete(m.entries, p) }

// Len is the number of entries.
func (m *Manifest) Len() int { return len(m.entries) }

// Paths returns the entries' paths, sorted.
func (m *Manifest) Paths() []string {
	out := make([]string, 0, len(m.entries))
	for p := range m.entries {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Hash is the hex SHA-256 of data, as Entry.SHA256 holds it.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Describes reports whether e describes the file whose current signature
// is sig; content reads the file, and is called only for a racy entry.
func (e *Entry) Describes(sig Sig, content func() ([]byte, error)) bool {
	if e == nil || e.Sig != sig {
		return false
	}
	if e.SHA256 == "" {
		return true
	}
	data, err := content()
	return err == nil && int64(len(data)) == sig.Size && Hash(data) == e.SHA256
}

// ErrDamaged is returned by Decode for a manifest that does not parse:
// the caller rebuilds it.
var ErrDamaged = errors.New("manifest damaged")

// Decode parses a manifest; name is the file it came from, for errors. A
// damaged manifest, or one of another version, is ErrDamaged wrapped with
// the file and line.
func Decode(data []byte, name string) (*Manifest, error) {
	m := New()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	line := 0
	var h header
	for sc.Scan() {
		line++
		if line == 1 {
			if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Version != Version {
				return nil, fmt.Errorf("%w: %s:1: not a version %d header", ErrDamaged, name, Version)
			}
			continue
		}
		e := &Entry{}
		if err := json.Unmarshal(sc.Bytes(), e); err != nil || e.Path == "" {
			return nil, fmt.Errorf("%w: %s:%d: not an entry", ErrDamaged, name, line)
		}
		if _, dup := m.entries[e.Path]; dup {
			return nil, fmt.Errorf("%w: %s:%d: %s listed twice", ErrDamaged, name, line, e.Path)
		}
		m.entries[e.Path] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrDamaged, name, err)
	}
	// A torn or truncated file shows as a count that does not add up.
	if line == 0 || h.Files != len(m.entries) {
		return nil, fmt.Errorf("%w: %s: the header says %d files, found %d", ErrDamaged, name, h.Files, len(m.entries))
	}
	return m, nil
}

// Encode renders the manifest; stampNS is the recording time (unix ns).
func (m *Manifest) Encode(stampNS int64) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(header{Version: Version, Stamp: stampNS, Files: len(m.entries)})
	for _, p := range m.Paths() {
		_ = enc.Encode(m.entries[p]) // plain strings and numbers: cannot fail
	}
	return buf.Bytes()
}
