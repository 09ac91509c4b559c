// Package viewcache keeps the derived views' per-topic fragments between
// processes (issue 26): a fresh process's first render of the views merges
// the fragment saved for each topic whose render input is unchanged and
// renders only the others. The input is the topic's path, its bytes and
// the trust of each of its blocks, exactly what the core's render reads,
// hashed into the key; so a fragment is merged only for the same input,
// and a missing, damaged or other-version file means rendering everything.
//
// The file is .scriptorium/runtime/views.cache: a cache, written whole
// through a temp file and a rename, never fsynced (a torn file fails its
// checksum), and removed by forget with the runtime's other caches.
package viewcache

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

	"scriptorium/render"
	"scriptorium/workspace"
)

// Name is the file's name in the runtime directory.
const Name = "views.cache"

// magic opens the file; the version after it is render.FragmentVersion.
const magic = "scriptorium views\n"

// Key is a topic's render input hashed: its path, bytes and blocks' trust.
type Key [sha256.Size]byte

// KeyOf returns the key of a topic at path with bytes data whose blocks
// are trusted as given.
func KeyOf(path string, data []byte, trusted []bool) Key {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	h.Write(binary.AppendUvarint(n[:0], uint64(len(path))))
	h.Write([]byte(path))
	h.Write(binary.AppendUvarint(n[:0], uint64(len(data))))
	h.Write(data)
	bits := make([]byte, len(trusted))
	for i, t := range trusted {
		if t {
			bits[i] = 1
		}
	}
	h.Write(bits)
	var k Key
	h.Sum(k[:0])
	return k
}

type saved struct {
	key  Key
	frag string
}

// Store is the saved fragments of one workspace, used for one render: the
// first of an engine (later renders of a long-lived engine re-render only
// what changed in memory). The nil Store renders every topic.
type Store struct {
	path   string
	saved  map[string]saved // topic path → its saved fragment
	keys   map[string]Key   // the keys of the topics set in this render
	misses int              // topics rendered rather than merged
	proved bool             // one merged fragment was compared with its render
	// entries is how many trusted blocks the saved fragments hold, for
	// sizing the ViewSet once before the first merge; grown, that it was.
	entries int
	grown   bool
}

// Load reads the store of the runtime directory dir. A missing, damaged or
// other-version file gives an empty store: every topic is rendered.
func Load(dir string) *Store {
	s := &Store{path: filepath.Join(dir, Name), saved: map[string]saved{}, keys: map[string]Key{}}
	data, err := os.ReadFile(s.path)
	if err != nil {
		return s
	}
	if m := decode(data); m != nil {
		s.saved = m
		for _, sv := range m {
			n, _ := binary.Uvarint([]byte(sv.frag[:min(len(sv.frag), binary.MaxVarintLen64)]))
			s.entries += int(min(n, uint64(len(sv.frag)))) // a damaged count sizes nothing absurd
		}
	}
	return s
}

// decode returns the fragments of a file's bytes, or nil unless the whole
// file is well formed, of this version and its checksum holds.
func decode(data []byte) map[string]saved {
	head := binary.AppendUvarint([]byte(magic), render.FragmentVersion)
	if len(data) < len(head)+4 || !bytes.HasPrefix(data, head) {
		return nil
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil
	}
	s := string(body[len(head):]) // one copy: every fragment is a substring of it
	out := map[string]saved{}
	for s != "" {
		path, rest, ok1 := cut(s)
		if !ok1 || len(rest) < len(Key{}) {
			return nil
		}
		var k Key
		copy(k[:], rest)
		frag, rest, ok2 := cut(rest[len(k):])
		if !ok2 {
			return nil
		}
		out[path] = saved{key: k, frag: frag}
		s = rest
	}
	return out
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// cut splits a length-prefixed string off s.
func cut(s string) (string, string, bool) {
	var n uint64
	for k := 0; k < len(s) && k < binary.MaxVarintLen64; k++ {
		n |= uint64(s[k]&0x7f) << (7 * k)
		if s[k] < 0x80 {
			if rest := s[k+1:]; n <= uint64(len(rest)) {
				return rest[:n], rest[n:], true
			}
			return "", "", false
		}
	}
	return "", "", false
}

// Remove deletes the store of the runtime directory dir: forget's finish
// step, whatever the file holds (it may hold forgotten text, and the
// runtime directory may be a symbolic link its walk does not follow).
func Remove(dir string) error {
	if err := os.Remove(filepath.Join(dir, Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Set sets the topic at path into v: from its saved fragment when the
// key matches, else from render(), the topic as the core renders it. The
// first merged fragment is checked against its render: a store that a
// different rendering saved under the same version is dropped whole.
func (s *Store) Set(v *render.ViewSet, path string, data []byte, trusted []bool, topic func() render.Topic) {
	if s == nil {
		v.Set(topic())
		return
	}
	if !s.grown {
		s.grown = true
		v.Grow(len(s.saved), s.entries)
	}
	k := KeyOf(path, data, trusted)
	s.keys[path] = k
	if sv, ok := s.saved[path]; ok && sv.key == k && s.prove(path, sv.frag, topic) && v.SetFragment(path, sv.frag) == nil {
		return
	}
	s.misses++
	v.Set(topic())
}

// prove renders a topic merged from the store and compares, until one
// with a dated entry (a rendered line) matched; after that the rest are
// trusted, after a mismatch none is. It is no proof that every topic
// would render alike, only a guard against a FragmentVersion left unbumped.
func (s *Store) prove(path, frag string, topic func() render.Topic) bool {
	if s.proved {
		return true
	}
	one := render.NewViewSet()
	one.Set(topic())
	got, _ := one.AppendFragment(nil, path)
	if string(got) != frag {
		clear(s.saved)
		return false
	}
	s.proved = len(one.Timeline()) > 0
	return true
}

// SaveShare is the share of a render's topics that must have been
// rendered rather than merged before the store is written again: a fresh
// process re-renders at most about that share of the topics an earlier
// one saved, and does not pay for a save after every one-file update.
var SaveShare = 32

// Finish ends the store's render: when enough topics were rendered rather
// than merged it saves v's fragments of the topics set (best effort: a
// failed save leaves the old file or none). It returns nil, the store of
// every later render.
func (s *Store) Finish(v *render.ViewSet) *Store {
	if s == nil || s.misses == 0 || s.misses*SaveShare < len(s.keys) {
		return nil
	}
	paths := make([]string, 0, len(s.keys))
	for p := range s.keys {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := binary.AppendUvarint([]byte(magic), render.FragmentVersion)
	var frag []byte
	for _, p := range paths {
		var ok bool
		if frag, ok = v.AppendFragment(frag[:0], p); !ok {
			continue
		}
		k := s.keys[p]
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(append(out, p...), k[:]...)
		out = binary.AppendUvarint(out, uint64(len(frag)))
		out = append(out, frag...)
	}
	out = binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
	_ = workspace.WriteFileBestEffort(filepath.Dir(s.path), s.path, out)
	return nil
}
