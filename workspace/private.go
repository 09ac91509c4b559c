package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TightenStateDir makes a memory private when it is not: a state dir made
// before memories were private (or by hand, or copied) holds
// conversations readable by other users. Only a state dir that holds a
// memory (isMemory) is touched, and in it only what is the memory's: the
// state dir itself, everything under memory/ and sessions.db with its
// SQLite companions; other files there (an agent runtime shares the
// directory) are left alone. When the state dir, memory/ or its
// .scriptorium/ is open to group or others, each of those paths loses its
// group and other permissions (0755 becomes 0700, 0644 becomes 0600);
// symlinks are not followed. notice says what was done ("" when nothing
// was loose): the caller shows it, a change to someone's files is never
// silent.
func TightenStateDir(stateDir string) (notice string, err error) {
	mem := MemoryDir(stateDir)
	if !isMemory(mem) {
		return "", nil // no workspace here: nothing of ours to tighten
	}
	loose := false
	for _, p := range []string{stateDir, mem, filepath.Join(mem, MetaDir)} {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
			loose = true
		}
	}
	if !loose {
		return "", nil
	}
	dirs, files := 0, 0
	tighten := func(p string, fi fs.FileInfo) error {
		perm := fi.Mode().Perm()
		if fi.Mode()&fs.ModeSymlink != 0 || perm&0o077 == 0 {
			return nil
		}
		if err := os.Chmod(p, perm&^0o077); err != nil {
			return err
		}
		if fi.IsDir() {
			dirs++
		} else {
			files++
		}
		return nil
	}
	if fi, err := os.Lstat(stateDir); err == nil {
		if err := tighten(stateDir, fi); err != nil {
			return "", fmt.Errorf("tighten %s: %w", stateDir, err)
		}
	}
	err = filepath.WalkDir(mem, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		return tighten(p, fi)
	})
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		p := SessionsDB(stateDir) + suffix
		if fi, lerr := os.Lstat(p); lerr == nil && err == nil {
			err = tighten(p, fi)
		}
	}
	notice = fmt.Sprintf("%s was open to other users: tightened %d director%s and %d file%s to owner-only (a memory is private)",
		stateDir, dirs, plural(dirs, "y", "ies"), files, plural(files, "", "s"))
	if err != nil {
		return notice, fmt.Errorf("tighten %s: %w", stateDir, err)
	}
	return notice, nil
}

// isMemory reports whether mem is a memory: one the engine has opened
// (its .scriptorium/), or the topics/ or sources/ of one no verb has
// opened yet (copied or generated). The first verb on such a copy creates
// .scriptorium/ and records the files' signatures (the search index's
// fingerprint, the manifest), ctime included: tightening them one verb
// later changed every ctime and left a first index build stale.
func isMemory(mem string) bool {
	for _, d := range []string{MetaDir, "topics", "sources"} {
		if fi, err := os.Lstat(filepath.Join(mem, d)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
