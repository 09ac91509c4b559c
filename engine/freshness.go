package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"

	"scriptorium/engine/index"
)

// Whether a cache of the files (the search index, a parsed file kept in
// memory) still describes them is decided by the files' signatures: size,
// mtime, ctime and inode. A signature cannot see an edit made within the
// same clock tick as the write it follows, with the same size and on the
// same inode: the file system's timestamps are coarse (a few ms), so both
// writes carry the same times. Such files are "racy" (git's word for it):
// whoever records a signature also records the content hash of every file
// changed shortly before, and whoever trusts that signature later checks
// those hashes. A racy file's cache is never trusted on its signature alone.

// racyKey is the index meta key of the racy files' hashes, written in the
// same batch as the fingerprint.
const racyKey = "racy"

// racyWindow is how recent a change must be, relative to the moment a
// signature is recorded, to count as racy. It is far above any file
// system's timestamp granularity and covers a clock that reads a little
// behind the one stamping the files.
var racyWindow = 2 * time.Second // a var: tests shorten it

// racyRecord is the value stored under racyKey.
type racyRecord struct {
	Stamp int64             `json:"stamp"` // unix ns when the record was made
	Files map[string]string `json:"files"` // path → hex sha256 of the content indexed
}

// racy reports whether a file with this signature changed within the racy
// window before (or after) at.
func (sig fileSig) racy(at time.Time) bool {
	edge := at.Add(-racyWindow).UnixNano()
	return sig == (fileSig{}) || sig.mtime >= edge || sig.ctime >= edge
}

// racyFiles records the content hash of every file of s whose signature is
// racy now. Files a transaction produced in memory are racy by definition
// (they were just written).
func (s *snapshot) racyFiles(now time.Time) string {
	rec := racyRecord{Stamp: now.UnixNano(), Files: map[string]string{}}
	add := func(p string, sig fileSig, data []byte) {
		if sig.racy(now) {
			sum := sha256.Sum256(data)
			rec.Files[p] = hex.EncodeToString(sum[:])
		}
	}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		add(p, tf.sig, tf.data)
	}
	for _, p := range s.archPaths {
		a := s.archives[p]
		add(p, a.sig, a.data)
	}
	b, _ := json.Marshal(rec)
	return string(b)
}

// racyHold reports whether every racy file recorded in meta still holds
// the content it held then. content returns a file's current bytes; a
// record that cannot be read holds nothing.
func racyHold(meta string, content func(p string) ([]byte, bool)) bool {
	var rec racyRecord
	if meta == "" || json.Unmarshal([]byte(meta), &rec) != nil || rec.Files == nil {
		return false
	}
	paths := make([]string, 0, len(rec.Files))
	for p := range rec.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, ok := content(p)
		if !ok {
			return false
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != rec.Files[p] {
			return false
		}
	}
	return true
}

// snapshotContent reads a file's bytes as the snapshot holds them.
func (s *snapshot) snapshotContent(p string) ([]byte, bool) {
	if tf, ok := s.topics[p]; ok {
		return tf.data, true
	}
	if a, ok := s.archives[p]; ok {
		return a.data, true
	}
	return nil, false
}

// diskContent reads a file's bytes from the workspace.
func diskContent(root string) func(p string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return data, err == nil
	}
}

// indexDescribes reports whether the index is a fresh build of the files
// whose fingerprint is fp: not marked for a rebuild, the same fingerprint,
// and every racy file recorded with it unchanged.
func indexDescribes(ix *index.Index, fp string, content func(p string) ([]byte, bool)) bool {
	if ix.NeedsRebuild() {
		return false
	}
	if have, err := ix.Meta(fingerprintKey); err != nil || have != fp {
		return false
	}
	racy, err := ix.Meta(racyKey)
	return err == nil && racyHold(racy, content)
}

// indexMeta is the meta written with every build or update of the index
// from s: its fingerprint and its racy files.
func (s *snapshot) indexMeta(root string, now time.Time) map[string]string {
	return map[string]string{fingerprintKey: s.fingerprint(root), racyKey: s.racyFiles(now)}
}
