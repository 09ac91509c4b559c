// Package faultfs is a workspace.FS for tests that makes the write path
// fail the way disks fail, the way Pebble's errorfs and SQLite's test VFS
// do for those projects:
//
//   - Trace: it records every operation (create, write, sync, chmod, close,
//     rename, remove, removeall, mkdir, syncdir) with its path, so a test can
//     enumerate the steps of an install.
//   - Fault: it fails one chosen operation (by its index in the trace) with a
//     chosen errno (ENOSPC, EIO, EACCES, …), once or from then on ("sticky",
//     a disk that stays full or gone). A failed write is a short write, as a
//     full disk gives; a failed RemoveAll has removed part of the tree.
//   - Power loss: it models what is durable (a file's bytes as of its last
//     fsync, a directory's entries as of its last directory fsync; what was
//     there at Start counts as durable), stops every operation from a chosen
//     index on, and Restore then rewrites the tree to only what was durable,
//     as a machine that lost power would find it on reboot.
//
// Only operations through the FS are seen: SQLite, bleve and other writers
// of their own files are outside it. Power-loss tests therefore name those
// files as untracked, and Restore leaves them as they are.
package faultfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"scriptorium/workspace"
)

// Kinds of operation.
const (
	Create    = "create"    // CreateTemp, OpenFile with O_CREATE
	Open      = "open"      // OpenFile without O_CREATE
	Write     = "write"     // File.Write
	Sync      = "sync"      // File.Sync: fsync of a file
	Chmod     = "chmod"     // File.Chmod
	Close     = "close"     // File.Close
	Rename    = "rename"    // FS.Rename
	Remove    = "remove"    // FS.Remove
	RemoveAll = "removeall" // FS.RemoveAll
	Mkdir     = "mkdir"     // FS.Mkdir
	SyncDir   = "syncdir"   // FS.SyncDir: fsync of a directory
)

// Errnos are the failures a matrix test injects at every step.
var Errnos = []syscall.Errno{syscall.ENOSPC, syscall.EIO, syscall.EACCES}

// ErrPowerLost is what every operation returns once the simulated power is
// gone.
var ErrPowerLost = errors.New("faultfs: power lost")

// Op is one operation in the trace.
type Op struct {
	Index int    // position in the trace since Start
	Kind  string // one of the kinds above
	Path  string // the file or directory; for rename, the old path
	To    string // rename only: the new path
}

func (o Op) String() string {
	if o.To != "" {
		return fmt.Sprintf("#%d %s %s -> %s", o.Index, o.Kind, o.Path, o.To)
	}
	return fmt.Sprintf("#%d %s %s", o.Index, o.Kind, o.Path)
}

// FS is the fault-injecting filesystem. Operations before Start pass
// through unrecorded (opening an engine); from Start on each is recorded,
// and the armed fault or crash applies. It is safe for concurrent use.
type FS struct {
	mu      sync.Mutex
	started bool
	trace   []Op

	failAt   int // trace index to fail; -1: none
	errno    syscall.Errno
	sticky   bool
	injected []Op

	crashAt int // trace index at which the power goes; -1: never
	crashed bool
	model   *model // power-loss mode only
}

var _ workspace.FS = (*FS)(nil)

// New returns an FS that records and fails nothing until armed.
func New() *FS { return &FS{failAt: -1, crashAt: -1} }

// Start begins recording (the trace restarts at index 0).
func (f *FS) Start() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started, f.trace = true, nil
}

// Stop ends recording and disarms every fault; later operations pass
// through.
func (f *FS) Stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.started, f.failAt, f.crashAt = false, -1, -1
}

// FailAt arms a fault: the operation at trace index i fails with errno;
// with sticky, every later operation fails with it too.
func (f *FS) FailAt(i int, errno syscall.Errno, sticky bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failAt, f.errno, f.sticky = i, errno, sticky
}

// Trace returns the operations recorded since Start.
func (f *FS) Trace() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.trace...)
}

// Injected returns the operations that were made to fail.
func (f *FS) Injected() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.injected...)
}

// Crashed reports whether the simulated power has gone.
func (f *FS) Crashed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.crashed
}

// begin records an operation and decides its fate: nil to perform it, or
// the error to return without performing it (fail=true: an injected
// errno, which a write turns into a short write).
func (f *FS) begin(kind, path, to string) (op Op, err error, fail bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.started {
		return Op{Index: -1}, nil, false
	}
	op = Op{Index: len(f.trace), Kind: kind, Path: path, To: to}
	f.trace = append(f.trace, op)
	if f.crashed || (f.crashAt >= 0 && op.Index >= f.crashAt) {
		f.crashed = true
		return op, ErrPowerLost, false
	}
	if f.failAt >= 0 && (op.Index == f.failAt || f.sticky && op.Index > f.failAt) {
		f.injected = append(f.injected, op)
		return op, f.errno, true
	}
	return op, nil, false
}

func pathErr(op, path string, err error) error {
	if err == ErrPowerLost {
		return fmt.Errorf("%s %s: %w", op, path, err)
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// CreateTemp implements workspace.FS.
func (f *FS) CreateTemp(dir, pattern string) (workspace.File, error) {
	if _, err, _ := f.begin(Create, filepath.Join(dir, pattern), ""); err != nil {
		return nil, pathErr("createtemp", filepath.Join(dir, pattern), err)
	}
	t, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	f.modelCreate(t.Name(), false)
	return &file{fs: f, f: t, path: t.Name()}, nil
}

// OpenFile implements workspace.FS.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (workspace.File, error) {
	kind := Open
	if flag&os.O_CREATE != 0 {
		kind = Create
	}
	if _, err, _ := f.begin(kind, name, ""); err != nil {
		return nil, pathErr("open", name, err)
	}
	_, statErr := os.Lstat(name)
	h, err := os.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if statErr != nil || flag&os.O_TRUNC != 0 {
		f.modelCreate(name, statErr == nil)
	}
	return &file{fs: f, f: h, path: name, appendMode: flag&os.O_APPEND != 0}, nil
}

// Rename implements workspace.FS.
func (f *FS) Rename(oldpath, newpath string) error {
	if _, err, _ := f.begin(Rename, oldpath, newpath); err != nil {
		if err == ErrPowerLost {
			return fmt.Errorf("rename %s %s: %w", oldpath, newpath, err)
		}
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	if err := os.Rename(oldpath, newpath); err != nil {
		return err
	}
	f.modelRename(oldpath, newpath)
	return nil
}

// Remove implements workspace.FS.
func (f *FS) Remove(name string) error {
	if _, err, _ := f.begin(Remove, name, ""); err != nil {
		return pathErr("remove", name, err)
	}
	if err := os.Remove(name); err != nil {
		return err
	}
	f.modelRemove(name)
	return nil
}

// RemoveAll implements workspace.FS. An injected failure comes part-way,
// as os.RemoveAll's does: the first half of a directory's entries (in name
// order) are removed, then the errno is returned.
func (f *FS) RemoveAll(path string) error {
	if _, err, fail := f.begin(RemoveAll, path, ""); err != nil {
		if fail {
			if ents, rerr := os.ReadDir(path); rerr == nil {
				for _, e := range ents[:len(ents)/2] {
					p := filepath.Join(path, e.Name())
					if os.RemoveAll(p) == nil {
						f.modelRemove(p)
					}
				}
			}
		}
		return pathErr("removeall", path, err)
	}
	if err := os.RemoveAll(path); err != nil {
		return err
	}
	f.modelRemove(path)
	return nil
}

// Mkdir implements workspace.FS.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	if _, err, _ := f.begin(Mkdir, name, ""); err != nil {
		return pathErr("mkdir", name, err)
	}
	if err := os.Mkdir(name, perm); err != nil {
		return err
	}
	f.modelMkdir(name)
	return nil
}

// SyncDir implements workspace.FS.
func (f *FS) SyncDir(dir string) error {
	if _, err, _ := f.begin(SyncDir, dir, ""); err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, pathErr("fsync", dir, err))
	}
	// No real fsync: what is durable is the model's business, and tests
	// run many installs. The directory must exist, as fsync needs it.
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	f.modelSyncDir(dir)
	return nil
}

// file is an open file whose operations go through the FS.
type file struct {
	fs         *FS
	f          *os.File
	path       string
	appendMode bool
	off        int64
}

func (h *file) Name() string { return h.f.Name() }

func (h *file) Write(p []byte) (int, error) {
	_, err, fail := h.fs.begin(Write, h.path, "")
	if err != nil {
		if !fail {
			return 0, pathErr("write", h.path, err)
		}
		// A full or failing disk writes part of the buffer first.
		n, _ := h.f.Write(p[:len(p)/2])
		h.fs.modelWrite(h, p[:n])
		return n, pathErr("write", h.path, err)
	}
	n, werr := h.f.Write(p)
	h.fs.modelWrite(h, p[:n])
	return n, werr
}

func (h *file) Sync() error {
	if _, err, _ := h.fs.begin(Sync, h.path, ""); err != nil {
		return pathErr("sync", h.path, err)
	}
	h.fs.modelSync(h.path) // no real fsync: see SyncDir
	return nil
}

func (h *file) Chmod(mode fs.FileMode) error {
	if _, err, _ := h.fs.begin(Chmod, h.path, ""); err != nil {
		return pathErr("chmod", h.path, err)
	}
	return h.f.Chmod(mode)
}

// Close always releases the descriptor; an injected failure is reported
// after it.
func (h *file) Close() error {
	_, err, _ := h.fs.begin(Close, h.path, "")
	cerr := h.f.Close()
	if err != nil {
		return pathErr("close", h.path, err)
	}
	return cerr
}

// ---- power loss ----
