package importer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// stagingPrefix starts the name of a staging sessions.db in the state dir:
// stagingPrefix + the importing process's id + "-" + a random suffix.
const stagingPrefix = ".sessions.db.import-"

// target is the sessions.db an import writes: the state dir's own or, when
// there is none yet, a private staging file that becomes sessions.db only
// when the import commits. A rejected first import then leaves nothing
// behind, while the import still stores file by file: deleting a
// sessions.db it had created would not be safe, since another process may
// have opened it meanwhile.
type target struct {
	dir     string
	final   string // workspace.SessionsDB(dir)
	staging string // the staging file, "" when the import writes final
	madeDir bool   // the import created the state dir
	store   *sessions.Store
}

// openTarget opens the sessions.db of the state dir dir for an import,
// waiting at most busy (zero: the store's default) for another writer.
func openTarget(dir string, busy time.Duration) (*target, error) {
	t := &target{dir: dir, final: workspace.SessionsDB(dir)}
	opts := &sessions.Options{BusyTimeout: busy}
	if _, err := os.Lstat(t.final); err == nil || !errors.Is(err, fs.ErrNotExist) {
		st, err := sessions.Open(t.final, opts)
		if err != nil {
			return nil, errcode.Wrap(errcode.IO, err, "open sessions.db")
		}
		t.store = st
		return t, nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		t.madeDir = true
	}
	if err := os.MkdirAll(dir, workspace.PrivateDir); err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "create state dir")
	}
	sweepStaging(dir)
	f, err := os.CreateTemp(dir, stagingPrefix+strconv.Itoa(os.Getpid())+"-*") // mode 0600, as sessions.db
	if err != nil {
		t.removeDir()
		return nil, errcode.Wrap(errcode.IO, err, "create sessions.db")
	}
	t.staging = f.Name()
	f.Close()
	// Nobody opens the staging file before it is published, and a failed
	// import throws it away: it can skip the write-ahead log, which would
	// write every page twice (sessions.Options.Unpublished).
	opts.Unpublished = true
	st, err := sessions.Open(t.staging, opts)
	if err != nil {
		t.discard()
		return nil, errcode.Wrap(errcode.IO, err, "open sessions.db")
	}
	t.store = st
	return t, nil
}

// publish ends an import that committed: a staging file becomes
// sessions.db, unless another process created one meanwhile (CONFLICT:
// nothing was imported, and running the import again stores it there).
func (t *target) publish() error {
	err := t.store.Close()
	t.store = nil
	if t.staging == "" {
		if err != nil {
			return errcode.Wrap(errcode.IO, err, "close sessions.db")
		}
		return nil
	}
	defer t.removeStaging()
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "close sessions.db")
	}
	// Closing the last connection checkpoints the write-ahead log into
	// the file and removes it; a log left behind would be lost with the
	// staging name.
	if fi, err := os.Stat(t.staging + "-wal"); err == nil && fi.Size() > 0 {
		return errcode.Errorf(errcode.IO, "sessions.db: the import's write-ahead log was not checkpointed; nothing was imported")
	}
	// The link publishes the file: its bytes must be on disk first,
	// whatever journal it was written with.
	if err := syncFile(t.staging); err != nil {
		return errcode.Wrap(errcode.IO, err, "create sessions.db")
	}
	// A hard link, unlike a rename, never replaces a sessions.db that
	// appeared in the meantime.
	if err := os.Link(t.staging, t.final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errcode.Errorf(errcode.Conflict, "another process created %s during the import; nothing was imported: run the import again", t.final)
		}
		return errcode.Wrap(errcode.IO, err, "create sessions.db")
	}
	if err := workspace.SyncDir(t.dir); err != nil {
		return errcode.Wrap(errcode.IO, err, "create sessions.db")
	}
	return nil
}

// discard ends an import that stored nothing: a staging file goes, and so
// does a state dir the import created, if it is still empty.
func (t *target) discard() {
	if t.store != nil {
		t.store.Close()
		t.store = nil
	}
	if t.staging != "" {
		t.removeStaging()
		t.removeDir()
	}
}

func (t *target) removeStaging() {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		_ = os.Remove(t.staging + suffix)
	}
}

func (t *target) removeDir() {
	if t.madeDir {
		_ = os.Remove(t.dir) // only when empty
	}
}

// sweepStaging removes the staging files of imports whose process is gone
// (killed before it could clean up): they hold conversations no forget
// would reach.
func sweepStaging(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), stagingPrefix)
		if !ok {
			continue
		}
		pid, _, _ := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if err != nil || n == os.Getpid() || processAlive(n) {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
