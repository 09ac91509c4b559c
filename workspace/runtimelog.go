package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// LibraryLogName is the runtime file that holds what libraries print to
// Go's default logger (bleve does): never a terminal, which a TUI may own.
const LibraryLogName = "library.log"

// RuntimeLog appends to a file in a workspace's runtime directory, opened
// (0600) at the first write, so a log can be routed before the workspace
// exists or is opened. A line that cannot be written is dropped: a log
// must never fail the work it describes.
type RuntimeLog struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// NewRuntimeLog returns the log named name in the runtime directory of the
// workspace at memDir.
func NewRuntimeLog(memDir, name string) *RuntimeLog {
	return &RuntimeLog{path: filepath.Join(memDir, MetaDir, runtimeName, name)}
}

// Path is the log file's path.
func (l *RuntimeLog) Path() string { return l.path }

// Write appends p, opening the file first if needed; it always reports
// success.
func (l *RuntimeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		f, err := os.OpenFile(l.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return len(p), nil
		}
		l.f = f
	}
	_, _ = l.f.Write(p)
	return len(p), nil
}

// Close closes the file if it was opened.
func (l *RuntimeLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// CreatePrivate creates an empty file at path with mode PrivateFile if
// none exists, so that a library that creates files with its own mode
// (SQLite's 0644) finds one, and derives its companions' modes from it.
func CreatePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, PrivateFile)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}
