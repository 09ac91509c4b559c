// Package depcache keeps the topic files' dependencies (deps.Topic)
// between processes (issue 26): deps.OfTopic is a pure function of a
// topic file's path and bytes, yet a fresh process computed it for every
// topic of the workspace on its first install (a tenth of a one-file
// `update` at 100k records). The store is keyed by SHA-256 of the path and
// the bytes, so an entry is used only for the very input it was computed
// from; a missing, damaged or other-version file means computing
// everything, and the first entry used is compared with a fresh
// computation (a guard against a Version left unbumped).
//
// The file is .scriptorium/runtime/deps.cache: a cache, written whole
// through a temp file and a rename, never fsynced (a torn file fails its
// checksum), and removed by forget with the runtime's other caches. It
// holds paths, anchors, source-ids and block ids, never record text.
package depcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"scriptorium/engine/deps"
	"scriptorium/workspace"
	"scriptorium/workspace/topic"
)

// Name is the file's name in the runtime directory.
const Name = "deps.cache"

// Version is bumped whenever deps.Topic or deps.OfTopic changes meaning.
const Version = 1

const magic = "scriptorium deps\n"

// Key is a topic file's path and bytes hashed.
type Key [sha256.Size]byte

// KeyOf returns the key of the topic file at path with bytes data.
func KeyOf(path string, data []byte) Key {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	h.Write(binary.AppendUvarint(n[:0], uint64(len(path))))
	h.Write([]byte(path))
	h.Write(data)
	var k Key
	h.Sum(k[:0])
	return k
}

// Store is the saved dependencies of one workspace, used for one sync of
// the engine's dependency index: its first (later syncs of a long-lived
// engine compute only what changed). The nil Store computes everything.
type Store struct {
	path   string
	saved  map[Key]string // key → the encoded deps.Topic, a substring of the file
	used   map[Key]*deps.Topic
	misses int
	proved bool // the first entry used was compared with a computation
}

// Load reads the store of the runtime directory dir. A missing, damaged
// or other-version file gives an empty store: everything is computed; no
// directory gives the nil Store.
func Load(dir string) *Store {
	if dir == "" {
		return nil
	}
	s := &Store{path: filepath.Join(dir, Name), saved: map[Key]string{}, used: map[Key]*deps.Topic{}}
	if data, err := os.ReadFile(s.path); err == nil {
		if m := decodeFile(data); m != nil {
			s.saved = m
		}
	}
	return s
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func header() []byte { return binary.AppendUvarint([]byte(magic), Version) }

// decodeFile returns the entries of a file's bytes, or nil unless the
// whole file is framed well, of this version and its checksum holds.
func decodeFile(data []byte) map[Key]string {
	head := header()
	if len(data) < len(head)+4 || !bytes.HasPrefix(data, head) {
		return nil
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil
	}
	s := string(body[len(head):]) // one copy: every string decoded is a substring of it
	out := map[Key]string{}
	for s != "" {
		if len(s) < len(Key{}) {
			return nil
		}
		var k Key
		copy(k[:], s)
		r := &decoder{s: s[len(k):]}
		enc := r.str()
		if r.bad {
			return nil
		}
		out[k], s = enc, r.s
	}
	return out
}

// Of returns the dependencies of the topic file at path with bytes data,
// parsed as f with footnote definitions defs(): the saved ones when the
// file holds its key, else deps.OfTopic's. A nil Store always computes.
func (s *Store) Of(path string, data []byte, f *topic.File, defs func() map[string]*topic.Definition) *deps.Topic {
	compute := func() *deps.Topic { return deps.OfTopic(path, f, defs()) }
	if s == nil {
		return compute()
	}
	k := KeyOf(path, data)
	if d, ok := s.used[k]; ok {
		return d
	}
	d, ok := decodeTopic(s.saved[k])
	if ok && !s.proved {
		// A mismatch means another computation saved the file under this
		// Version: nothing in it is used.
		if want := compute(); !Equal(d, want) {
			clear(s.saved)
			d, ok = want, false
		}
		s.proved = true
	}
	if !ok {
		s.misses++
		d = compute()
	}
	s.used[k] = d
	return d
}

// SaveShare is the share of a sync's topics that must have been computed
// rather than read before the store is written again, as the view cache's
// (viewcache.SaveShare): a one-file update does not pay for a save.
var SaveShare = 32

// Finish ends the store's sync: when enough topics were computed it saves
// the dependencies of every topic used (best effort: a failed save leaves
// the old file or none). It returns nil, the store of every later sync.
func (s *Store) Finish() *Store {
	if s == nil || s.misses == 0 || s.misses*SaveShare < len(s.used) {
		return nil
	}
	keys := make([]Key, 0, len(s.used))
	for k := range s.used {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int { return bytes.Compare(a[:], b[:]) })
	out := header()
	var enc []byte
	for _, k := range keys {
		enc = encodeTopic(enc[:0], s.used[k])
		out = append(out, k[:]...)
		out = binary.AppendUvarint(out, uint64(len(enc)))
		out = append(out, enc...)
	}
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
	_ = workspace.WriteFileBestEffort(filepath.Dir(s.path), s.path, out)
	return nil
}

// Remove deletes the store of the runtime directory dir (forget's finish
// step clears the runtime's caches).
func Remove(dir string) error {
	if err := os.Remove(filepath.Join(dir, Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Equal reports whether a and b are the same dependencies.
func Equal(a, b *deps.Topic) bool {
	if len(a.Blocks) != len(b.Blocks) || !slices.Equal(a.Targets, b.Targets) || !slices.Equal(a.Refs, b.Refs) ||
		!slices.Equal(a.IDs, b.IDs) {
		return false
	}
	for i := range a.Blocks {
		x, y := &a.Blocks[i], &b.Blocks[i]
		if x.Defined != y.Defined || !slices.Equal(x.Keys, y.Keys) || !slices.Equal(x.Refs, y.Refs) {
			return false
		}
	}
	return true
}
