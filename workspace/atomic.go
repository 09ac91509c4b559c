package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// tempPrefix starts the name of every temp file the atomic writer creates,
// followed by the writer's pid and a random suffix (".tmp-4242-123456").
// The open-time sweep removes only files named like this whose pid is no
// longer running, so a journal or stage of the transaction engine, or a
// temp file of a live writer, is never touched.
const tempPrefix = ".tmp-"

// fileMode is the mode of every file the atomic writer installs: a memory
// is private (issue 24 overrides SPEC §3.1's 0644).
const fileMode fs.FileMode = PrivateFile

// dirMode is the mode of every directory the package creates.
const dirMode fs.FileMode = PrivateDir

// PrivateFile and PrivateDir are the modes of everything in a state dir:
// a memory is its owner's alone.
const (
	PrivateFile fs.FileMode = 0o600
	PrivateDir  fs.FileMode = 0o700
)

// File is the part of *os.File the atomic writer and the engine's
// install use.
type File interface {
	Name() string
	Write(p []byte) (int, error)
	Sync() error
	Chmod(mode fs.FileMode) error
	Close() error
}

// tempFile is the name the package's own code and tests use for File.
type tempFile = File

// FS is every filesystem side effect of the write path: the atomic writer,
// the sweep, the old-layout move (this package) and the engine's install
// (stage, journal, renames, deletes, directory fsyncs). OS is the real
// implementation. Tests pass another through Options.FS (and
// engine.Options.FS) to fail any step with any errno, or to record what was
// made durable and simulate a power loss (package workspace/faultfs).
// Reads are not part of it.
type FS interface {
	CreateTemp(dir, pattern string) (File, error)
	// OpenFile is os.OpenFile; the install creates its staged files with
	// O_WRONLY|O_CREATE|O_EXCL.
	OpenFile(name string, flag int, perm fs.FileMode) (File, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	RemoveAll(path string) error
	Mkdir(name string, perm fs.FileMode) error
	// SyncDir fsyncs a directory (see the function SyncDir).
	SyncDir(dir string) error
}

// OS is the real filesystem.
var OS FS = osOps{}

// fileOps is every side effect the atomic writer, the sweep and the
// migration perform, so tests can make any step fail. osOps is the real
// implementation.
type fileOps interface {
	CreateTemp(dir, pattern string) (tempFile, error)
	Rename(oldpath, newpath string) error
	Remove(name string) error
	Mkdir(name string, perm fs.FileMode) error
	SyncDir(dir string) error
}

// osOps performs fileOps on the real filesystem.
type osOps struct{}

func (osOps) CreateTemp(dir, pattern string) (tempFile, error) { return os.CreateTemp(dir, pattern) }
func (osOps) Rename(oldpath, newpath string) error             { return os.Rename(oldpath, newpath) }
func (osOps) Remove(name string) error                         { return os.Remove(name) }
func (osOps) Mkdir(name string, perm fs.FileMode) error        { return os.Mkdir(name, perm) }
func (osOps) SyncDir(dir string) error                         { return SyncDir(dir) }
func (osOps) RemoveAll(path string) error                      { return os.RemoveAll(path) }
func (osOps) OpenFile(name string, flag int, perm fs.FileMode) (File, error) {
	return os.OpenFile(name, flag, perm)
}

// SyncDir fsyncs a directory so that entries created, renamed or removed in
// it survive a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	if err := d.Sync(); err != nil {
		_ = d.Close()
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	if err := d.Close(); err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}

// WriteFileAtomic replaces target with data so that after a crash target
// holds either its old or its new bytes, never a mix. The data goes to a
// private temp file in runtimeDir (which must be on the target's
// filesystem), is fsynced, made 0600 and renamed over target; then the
// target's directory is fsynced. Missing parent directories are created
// (0700), each one's parent fsynced.
//
// Any failure returns an error and removes the temp file; nothing is
// retried. A failure before the rename leaves target untouched; if only the
// final directory fsync fails, the new bytes may already be visible but are
// not known to be durable, and the error says so.
func WriteFileAtomic(runtimeDir, target string, data []byte) error {
	return writeFileAtomic(osOps{}, runtimeDir, target, data, true)
}

// WriteFileBestEffort is WriteFileAtomic without its fsyncs: while the
// system runs, target holds its old or its new bytes, never a mix; after a
// crash it may hold either, or the old. For status files whose loss costs
// nothing: the hook's, written on every prompt, where the two fsyncs were
// milliseconds of the prompt's wait (BENCHMARKS.md, the resident prompt
// path).
func WriteFileBestEffort(runtimeDir, target string, data []byte) error {
	return writeFileAtomic(osOps{}, runtimeDir, target, data, false)
}

// writeFileAtomic is WriteFileAtomic over ops. durable=false skips both
// fsyncs, for best-effort files such as lock-holder whose loss after a
// crash does not matter.
func writeFileAtomic(ops fileOps, runtimeDir, target string, data []byte, durable bool) (err error) {
	parent := filepath.Dir(target)
	if err := mkdirAllSynced(ops, parent); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	if !sameDevice(runtimeDir, parent) {
		runtimeDir = parent // a rename cannot cross filesystems (device.go)
	}
	tmp, err := ops.CreateTemp(runtimeDir, tempPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return fmt.Errorf("write %s: create temp file: %w", target, err)
	}
	tmpName := tmp.Name()
	renamed := false
	defer func() {
		if err != nil && !renamed {
			_ = tmp.Close() // already closed on some paths; the error does not matter
			_ = ops.Remove(tmpName)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", target, err)
	}
	// The mode is set before the fsync so that it is durable too.
	if err := tmp.Chmod(fileMode); err != nil {
		return fmt.Errorf("write %s: chmod: %w", target, err)
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			return fmt.Errorf("write %s: fsync: %w", target, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: close: %w", target, err)
	}
	if err := ops.Rename(tmpName, target); err != nil {
		return fmt.Errorf("write %s: rename: %w", target, err)
	}
	renamed = true
	if durable {
		if err := ops.SyncDir(parent); err != nil {
			return fmt.Errorf("write %s: renamed but not durable: %w", target, err)
		}
	}
	return nil
}

// mkdirAllSynced creates dir and any missing ancestors with mode 0700,
// fsyncing the parent of every directory it creates so the new entries are
// durable before anything is written into them.
func mkdirAllSynced(ops fileOps, dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("mkdir %s: %s is not a directory", dir, d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("mkdir %s: %w", dir, err)
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		// Another process may create the same directory at the same time;
		// that is fine, its parent still gets fsynced below.
		if err := ops.Mkdir(d, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("mkdir %s: %w", d, err)
		}
		if err := ops.SyncDir(filepath.Dir(d)); err != nil {
			return fmt.Errorf("mkdir %s: %w", d, err)
		}
	}
	return nil
}
