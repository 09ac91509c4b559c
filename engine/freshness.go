package engine

import (
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine/index"
	"scriptorium/workspace/manifest"
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

// racyWindow is how recent a change must be, relative to the moment a
// signature is recorded, to count as racy. It is far above any file
// system's timestamp granularity and covers a clock that reads a little
// behind the one stamping the files.
var racyWindow = 2 * time.Second // a var: tests shorten it

// racy reports whether a file with this signature changed within the racy
// window before (or after) at.
func (sig fileSig) racy(at time.Time) bool {
	edge := at.Add(-racyWindow).UnixNano()
	return sig == (fileSig{}) || sig.mtime >= edge || sig.ctime >= edge
}

// racyFiles records (index.Racy) the content hash of every file of s whose signature is
// racy now. Files a transaction produced in memory are racy by definition
// (they were just written).
func (s *snapshot) racyFiles(now time.Time) string {
	rec := index.Racy{Stamp: now.UnixNano(), Files: map[string]string{}}
	add := func(p string, sig fileSig, data []byte) {
		if sig.racy(now) {
			rec.Files[p] = index.HashContent(data)
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
	return rec.String()
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

// readIfSig reads a file if its signature, taken on the open file, is
// want (manifest.ReadIfSig).
func readIfSig(path string, want fileSig) ([]byte, bool) {
	return manifest.ReadIfSig(path, toManifestSig(want))
}

// fingerprint summarises everything the index derives from: every memory
// file's path and signature (size, mtime, ctime, inode), topics first,
// then archives, each in path order, and the promotion ledger
// (index.Fingerprint). A hand edit behind the engine's back changes it, so
// the index is brought up to date. Files read from disk carry the
// signature they were read with, so a snapshot's fingerprint describes
// that snapshot even after an install has replaced the files; files a
// transaction produced in memory are stat'ed.
func (s *snapshot) fingerprint(root string) string {
	// A snapshot read from disk has every signature: its fingerprint never
	// changes, and a long-lived engine asks for it on every search.
	if s.fp != nil {
		if fp := s.fp.Load(); fp != nil {
			return *fp
		}
	}
	files := make([]index.FileSig, 0, len(s.topicPaths)+len(s.archPaths))
	stable := s.fp != nil
	add := func(p string, sig fileSig) {
		stable = stable && sig != (fileSig{})
		files = append(files, index.FileSig{Path: p, Sig: toManifestSig(sig)})
	}
	for _, p := range s.topicPaths {
		add(p, s.topics[p].sig)
	}
	for _, p := range s.archPaths {
		add(p, s.archives[p].sig)
	}
	fp := index.Fingerprint(root, files, s.promoted)
	if stable {
		s.fp.Store(&fp)
	}
	return fp
}
