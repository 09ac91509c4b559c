package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sweepTemp removes orphan temp files of the atomic writer from the runtime
// directory: regular files named ".tmp-<pid>-…" whose pid is not a running
// process (or whose pid cannot be read). Nothing else there is touched:
// journals and stages belong to the transaction engine, which has already
// recovered them through Options.Recover, and a live process's temp file
// may still be renamed into place. It runs under the write lock.
func (w *Workspace) sweepTemp() error {
	dir := w.RuntimeDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("sweep %s: %w", dir, err)
	}
	removed := false
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, tempPrefix) {
			continue
		}
		if pid, ok := tempOwner(name); ok && pidAlive(pid) {
			continue
		}
		if err := w.ops.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("sweep: %w", err)
		}
		removed = true
	}
	if removed {
		if err := w.ops.SyncDir(dir); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	return nil
}

// tempOwner reads the pid out of a temp file name ".tmp-<pid>-<random>".
func tempOwner(name string) (int, bool) {
	rest := strings.TrimPrefix(name, tempPrefix)
	digits, _, found := strings.Cut(rest, "-")
	if !found {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, true
}

// oldEntry is one name of the pre-Scriptorium layout, with the files that
// must travel with it.
type oldEntry struct {
	name     string
	sidecars []string // suffixes of companion files, e.g. SQLite's "-wal"
}

// oldLayout lists what Open moves out of the workspace (SPEC §2), in order.
// index.sqlite takes its SQLite companions along so the moved database stays
// consistent.
var oldLayout = []oldEntry{
	{name: "journal"},
	{name: "wiki"},
	{name: ".state"},
	{name: "index.sqlite", sidecars: []string{"-wal", "-shm", "-journal"}},
}

// moveOldLayout moves every entry of oldLayout found in root into
// superseded (created when needed), never deleting anything: an entry
// whose name is taken there gets the first free name among "name.1",
// "name.2", …. Both directories are fsynced. Running it again once
// everything has moved does nothing.
func moveOldLayout(ops fileOps, root, superseded string) ([]Move, error) {
	var moves []Move
	for _, e := range oldLayout {
		members := append([]string{""}, e.sidecars...)
		var present []string
		for _, suffix := range members {
			if _, err := os.Lstat(filepath.Join(root, e.name+suffix)); err == nil {
				present = append(present, suffix)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return moves, fmt.Errorf("migrate old layout: %w", err)
			}
		}
		if len(present) == 0 {
			continue
		}
		if err := mkdirAllSynced(ops, superseded); err != nil {
			return moves, fmt.Errorf("migrate old layout: %w", err)
		}
		dest, err := freeName(superseded, e.name, members)
		if err != nil {
			return moves, fmt.Errorf("migrate old layout: %w", err)
		}
		for _, suffix := range present {
			m := Move{From: filepath.Join(root, e.name+suffix), To: filepath.Join(superseded, dest+suffix)}
			if err := ops.Rename(m.From, m.To); err != nil {
				return moves, fmt.Errorf("migrate old layout: %w", err)
			}
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return nil, nil
	}
	for _, d := range []string{superseded, root} {
		if err := ops.SyncDir(d); err != nil {
			return moves, fmt.Errorf("migrate old layout: %w", err)
		}
	}
	return moves, nil
}

// maxSuffix bounds the search for a free name in memory-superseded/.
const maxSuffix = 10000

// freeName returns name, or name.N with the smallest N, such that no
// name+suffix for any of suffixes exists in dir.
func freeName(dir, name string, suffixes []string) (string, error) {
	for n := 0; n <= maxSuffix; n++ {
		cand := name
		if n > 0 {
			cand = name + "." + strconv.Itoa(n)
		}
		free := true
		for _, s := range suffixes {
			if _, err := os.Lstat(filepath.Join(dir, cand+s)); err == nil {
				free = false
				break
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		if free {
			return cand, nil
		}
	}
	return "", fmt.Errorf("no free name for %s in %s", name, dir)
}
