package workspace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gofrs/flock"
)

// Names inside the workspace root.
const (
	TopicsDir  = "topics"       // editable semantic memory
	SourcesDir = "sources"      // append-only evidence
	MetaDir    = ".scriptorium" // runtime state; never memory content
)

// Names inside MetaDir.
const (
	runtimeName     = "runtime"
	idName          = "workspace-id"
	revisionName    = "revision"
	lockName        = "write.lock"
	lockHolderName  = "lock-holder" // inside runtime/
	workspaceIDSize = 16            // bytes: a 128-bit id, 32 hex digits
)

// Options configures Open. The zero value (or nil) is valid.
type Options struct {
	// Recover, if set, runs once during Open while the write lock is held,
	// before the sweep of orphan temp files and the old-layout move. The
	// transaction engine uses it to roll a complete journal forward and to
	// discard an incomplete stage. It must not call w.Lock (the lock is
	// already held). An error fails Open.
	Recover func(w *Workspace) error
	// NeedsRecovery, if set, tells Open whether Recover has anything to do;
	// when it and every check of Open's own say no, Open takes no lock.
	// Without it, Open always takes the lock and runs Recover.
	NeedsRecovery func(w *Workspace) bool

	// OnLockWait, if set, is called once each time a LockInteractive
	// acquisition (Open's included) finds the lock taken and starts to wait,
	// so a CLI or TUI can say that it is waiting. ReadLockHolder tells who
	// holds it. It must return quickly and must not take the lock.
	OnLockWait func()

	// Holder names this process in the lock-holder file while it holds the
	// lock, e.g. the CLI verb ("update") or "tui". Default: the program name.
	Holder string

	// FS replaces the filesystem side effects, for tests only (fault
	// injection, power-loss simulation): the workspace's own writes and,
	// through Workspace.FS, the engine's install. Nil: the real filesystem.
	FS FS

	// ops replaces the filesystem side effects, for this package's tests.
	// Nil: FS, or the real filesystem.
	ops fileOps
}

// Move is one entry of the old layout that Open moved out of the workspace.
type Move struct {
	From string // absolute path inside the workspace
	To   string // absolute path inside <state>/memory-superseded/
}

// Workspace is an open memory workspace. Its methods are safe for
// concurrent use. Opening the same directory twice in one process gives two
// handles whose locks exclude each other like two processes.
type Workspace struct {
	root       string
	id         string
	ops        fileOps
	fs         FS
	onLockWait func()
	holder     string
	migrated   []Move
	lockWarn   string
	stageDir   string // where installs stage (device.go)

	fl  *flock.Flock
	sem chan struct{} // in-process lock: one flock instance does not exclude goroutines
}

// Open opens the workspace at memoryDir, creating its tree if needed. It
// waits for the write lock as an interactive writer would (without limit;
// see OpenContext) and, holding it, creates .scriptorium/workspace-id and
// .scriptorium/revision when missing, runs opts.Recover, sweeps orphan temp
// files out of .scriptorium/runtime/ and moves an old layout (journal/,
// wiki/, .state/, index.sqlite) into the sibling memory-superseded/
// directory. opts may be nil.
func Open(memoryDir string, opts *Options) (*Workspace, error) {
	return OpenContext(context.Background(), memoryDir, opts)
}

// OpenContext is Open with a context that bounds the wait for the write
// lock; when it is done first, the error matches ErrLockBusy.
func OpenContext(ctx context.Context, memoryDir string, opts *Options) (*Workspace, error) {
	if opts == nil {
		opts = &Options{}
	}
	root, err := filepath.Abs(memoryDir)
	if err != nil {
		return nil, fmt.Errorf("open workspace %q: %w", memoryDir, err)
	}
	w := &Workspace{
		root:       root,
		ops:        opts.ops,
		onLockWait: opts.OnLockWait,
		holder:     opts.Holder,
		sem:        make(chan struct{}, 1),
	}
	w.fs = OS
	if opts.FS != nil {
		w.fs = opts.FS
		if w.ops == nil {
			w.ops = opts.FS
		}
	}
	if w.ops == nil {
		w.ops = osOps{}
	}
	if w.holder == "" {
		w.holder = filepath.Base(os.Args[0])
	}
	for _, d := range []string{root, w.Path(TopicsDir), w.Path(SourcesDir), w.metaPath(), w.RuntimeDir()} {
		if err := mkdirAllSynced(w.ops, d); err != nil {
			return nil, fmt.Errorf("open workspace: %w", err)
		}
	}
	if err := w.chooseStageDir(); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	w.fl = flock.New(w.metaPath(lockName), flock.SetPermissions(fileMode))
	if fsName := unreliableLockFS(w.metaPath()); fsName != "" {
		w.lockWarn = fmt.Sprintf("%s is on a %s filesystem, where file locks are unreliable: concurrent writers may corrupt memory", w.fl.Path(), fsName)
	}

	// Most opens find nothing to finish: then readers never wait behind a
	// writer that holds the lock for a long model call.
	if !w.needsMaintenance(opts) {
		if err := w.loadState(); err == nil {
			return w, nil
		}
	}
	release, err := w.Lock(ctx, LockInteractive)
	if err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	defer release()
	if err := w.initState(); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	if opts.Recover != nil {
		if err := opts.Recover(w); err != nil {
			return nil, fmt.Errorf("open workspace %s: recover: %w", root, err)
		}
	}
	if err := w.sweepTemp(); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	if w.migrated, err = moveOldLayout(w.ops, root, SupersededDir(filepath.Dir(root))); err != nil {
		return nil, fmt.Errorf("open workspace %s: %w", root, err)
	}
	return w, nil
}

// needsMaintenance reports whether Open has work to do under the lock: state
// files to create, a recovery the caller asks for, orphan temp files to
// sweep, or an old layout to move. Without any, Open takes no lock.
func (w *Workspace) needsMaintenance(opts *Options) bool {
	for _, name := range []string{idName, revisionName} {
		if _, err := os.Lstat(w.metaPath(name)); err != nil {
			return true
		}
	}
	if opts.Recover != nil && (opts.NeedsRecovery == nil || opts.NeedsRecovery(w)) {
		return true
	}
	entries, err := os.ReadDir(w.RuntimeDir())
	if err != nil {
		return true
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			return true
		}
	}
	for _, e := range oldLayout {
		if _, err := os.Lstat(filepath.Join(w.root, e.name)); err == nil {
			return true
		}
	}
	return false
}

// loadState reads the workspace id and checks the revision without
// creating anything.
func (w *Workspace) loadState() error {
	data, err := os.ReadFile(w.metaPath(idName))
	if err != nil {
		return err
	}
	id, ok := parseID(data)
	if !ok {
		return fmt.Errorf("%w: %s does not hold 32 lower-case hex digits", ErrCorruptState, w.metaPath(idName))
	}
	w.id = id
	_, err = w.Revision()
	return err
}

// initState creates workspace-id and revision when missing and loads the id.
func (w *Workspace) initState() error {
	idPath := w.metaPath(idName)
	if _, err := os.Lstat(idPath); errors.Is(err, fs.ErrNotExist) {
		var b [workspaceIDSize]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("workspace id: %w", err)
		}
		if err := writeFileAtomic(w.ops, w.RuntimeDir(), idPath, []byte(hex.EncodeToString(b[:])+"\n"), true); err != nil {
			return fmt.Errorf("workspace id: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("workspace id: %w", err)
	}
	data, err := os.ReadFile(idPath)
	if err != nil {
		return fmt.Errorf("workspace id: %w", err)
	}
	id, ok := parseID(data)
	if !ok {
		return fmt.Errorf("%w: %s does not hold 32 lower-case hex digits", ErrCorruptState, idPath)
	}
	w.id = id

	revPath := w.metaPath(revisionName)
	if _, err := os.Lstat(revPath); errors.Is(err, fs.ErrNotExist) {
		if err := writeFileAtomic(w.ops, w.RuntimeDir(), revPath, []byte("0\n"), true); err != nil {
			return fmt.Errorf("revision: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("revision: %w", err)
	}
	_, err = w.Revision()
	return err
}

// parseID accepts 32 lower-case hex digits with an optional final LF.
func parseID(data []byte) (string, bool) {
	s := strings.TrimSuffix(string(data), "\n")
	if len(s) != 2*workspaceIDSize {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return "", false
		}
	}
	return s, true
}

// FS returns the filesystem the workspace writes through: Options.FS, or
// OS. The engine's install uses it for every side effect.
func (w *Workspace) FS() FS { return w.fs }

// Root returns the absolute path of the workspace (the memory directory).
func (w *Workspace) Root() string { return w.root }

// ID returns the workspace id: 32 hex digits created once, on first open.
func (w *Workspace) ID() string { return w.id }

// ReadID reads the id of the workspace at root (its memory directory)
// without opening it: for a check that another process serves this very
// workspace. A missing or malformed id is an error.
func ReadID(root string) (string, error) {
	path := filepath.Join(root, MetaDir, idName)
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	id, ok := parseID(data)
	if !ok {
		return "", fmt.Errorf("%s: %w", path, ErrCorruptState)
	}
	return id, nil
}

// RuntimeDir returns .scriptorium/runtime/, the home of temp files and
// journals; it is on the workspace's filesystem, so renames out of it are
// atomic.
func (w *Workspace) RuntimeDir() string { return w.metaPath(runtimeName) }

// Path returns the absolute path of a slash-separated workspace-relative
// path. It does not validate rel; callers that take paths from users check
// them first.
func (w *Workspace) Path(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// Migrated returns what Open moved out of an old layout, in move order;
// empty when there was nothing to move. The engine records it as a
// migration history entry.
func (w *Workspace) Migrated() []Move { return append([]Move(nil), w.migrated...) }

// LockWarning returns a warning when the workspace lives on a filesystem
// where the write lock cannot be trusted (NFS, SMB, FUSE, 9P), or "". The
// CLI and TUI show it; Scriptorium still works there with one writer.
func (w *Workspace) LockWarning() string { return w.lockWarn }

func (w *Workspace) metaPath(name ...string) string {
	return filepath.Join(append([]string{w.root, MetaDir}, name...)...)
}

// Revision reads the current revision from .scriptorium/revision. It reads
// the file every time, so it sees installs by other processes.
func (w *Workspace) Revision() (int64, error) {
	p := w.metaPath(revisionName)
	data, err := os.ReadFile(p)
	if err != nil {
		return 0, fmt.Errorf("read revision: %w", err)
	}
	n, ok := parseRevision(data)
	if !ok {
		return 0, fmt.Errorf("%w: %s holds %q, not a decimal revision", ErrCorruptState, p, truncate(data, 40))
	}
	return n, nil
}

// SetRevision atomically replaces the revision with n. The caller holds the
// write lock.
func (w *Workspace) SetRevision(n int64) error {
	if n < 0 {
		return fmt.Errorf("set revision %d: %w", n, ErrInvalidRevision)
	}
	data := []byte(strconv.FormatInt(n, 10) + "\n")
	if err := writeFileAtomic(w.ops, w.RuntimeDir(), w.metaPath(revisionName), data, true); err != nil {
		return fmt.Errorf("set revision: %w", err)
	}
	return nil
}

// WriteFile atomically replaces the slash-separated workspace-relative file
// rel with data, as WriteFileAtomic does, using the workspace's runtime
// directory for the temp file.
func (w *Workspace) WriteFile(rel string, data []byte) error {
	return writeFileAtomic(w.ops, w.RuntimeDir(), w.Path(rel), data, true)
}

// parseRevision accepts decimal digits with an optional final LF.
func parseRevision(data []byte) (int64, bool) {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}
