// Package mirror keeps files on disk exactly equal to bytes computed in
// memory (the derived views: core.md, the timeline, …), reading and
// writing only what may differ: it remembers the version of each file it
// last wrote or checked, so a file whose bytes and on-disk signature are
// unchanged is neither read nor written, while a hand edit is read,
// compared and overwritten.
package mirror

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/manifest"
)

// readFile is os.ReadFile; tests count the reads through it.
var readFile = os.ReadFile

// Mirror is the set of files one caller keeps; the zero value remembers
// nothing (every file is read and compared once).
type Mirror struct {
	disk map[string]file // slash path → the version last written or checked
}

type file struct {
	sig  manifest.Sig
	data []byte
}

// Sync makes the files under root exactly files (slash paths relative to
// root): fixed names the files at known paths it owns, and every .md
// file under the directory dir is its too, so one there that files does
// not hold is removed, with the directories it leaves empty. Temporary
// files are staged in tmpDir.
func (m *Mirror) Sync(root, tmpDir string, fixed []string, dir string, files map[string][]byte) error {
	if m.disk == nil {
		m.disk = map[string]file{}
	}
	onDisk := map[string]manifest.Sig{}
	base := filepath.Join(root, filepath.FromSlash(dir))
	_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if fi, err := d.Info(); err == nil {
			onDisk[filepath.ToSlash(rel)] = manifest.SigOf(fi)
		}
		return nil
	})
	for _, p := range fixed {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			onDisk[p] = manifest.SigOf(fi)
		}
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data := files[p]
		sig, exists := onDisk[p]
		rec, ok := m.disk[p]
		known := ok && exists && rec.sig == sig // the file is still what we last wrote or read
		if known && bytes.Equal(rec.data, data) {
			continue
		}
		delete(m.disk, p)
		target := filepath.Join(root, filepath.FromSlash(p))
		// A file still as we left it differs from data: reading it back
		// (megabytes for recent_events.jsonl at 100k records) only to
		// compare would tell us nothing. Nor would reading one of another
		// size: a fresh process (which remembers nothing) reads only the
		// files that may hold data already (issue 26).
		if exists && !known && sig.Size == int64(len(data)) {
			if old, err := readFile(target); err == nil && bytes.Equal(old, data) {
				m.disk[p] = file{sig: sig, data: data}
				continue
			}
		}
		if err := workspace.WriteFileAtomic(tmpDir, target, data); err != nil {
			return errcode.Wrap(errcode.IO, err, "write %s", p)
		}
		if fi, err := os.Lstat(target); err == nil {
			m.disk[p] = file{sig: manifest.SigOf(fi), data: data}
		}
	}
	for p := range onDisk {
		if _, keep := files[p]; keep || !strings.HasPrefix(p, dir+"/") {
			continue
		}
		delete(m.disk, p)
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return errcode.Wrap(errcode.IO, err, "remove stale %s", full)
		}
		RemoveEmptyDirs(filepath.Dir(full), base)
	}
	return nil
}

// RemoveEmptyDirs removes dir and its parents while they are empty, up to
// and excluding stop.
func RemoveEmptyDirs(dir, stop string) {
	for dir != stop && strings.HasPrefix(dir, stop) {
		if err := os.Remove(dir); err != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
