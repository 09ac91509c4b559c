package workspace

import (
	"os"
	"syscall"
)

// Renames cannot cross filesystems (EXDEV). The runtime directory may be a
// symlink to another one (a tmpfs such as /dev/shm): then nothing is
// staged there that must be renamed into the workspace (issue 24 §6).

// sameDevice reports whether a and b are on one filesystem; when either
// cannot be read it says yes, and the rename reports what is wrong.
func sameDevice(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return true
	}
	sa, okA := fa.Sys().(*syscall.Stat_t)
	sb, okB := fb.Sys().(*syscall.Stat_t)
	if !okA || !okB {
		return true
	}
	return sa.Dev == sb.Dev
}

// StageDir is where an install stages its files and journal: the runtime
// directory, unless that is on another filesystem than the workspace,
// where .scriptorium/ itself serves (it is on the workspace's filesystem,
// or the workspace could not be opened at all: see checkLayout).
func (w *Workspace) StageDir() string { return w.stageDir }

// StageDirs lists every directory a stage may be found in, the current
// one first: recovery looks in each, so a stage left by an install that
// staged elsewhere (before the runtime directory moved) is still found.
func (w *Workspace) StageDirs() []string {
	if w.stageDir == w.RuntimeDir() {
		return []string{w.stageDir, w.metaPath()}
	}
	return []string{w.stageDir, w.RuntimeDir()}
}

// chooseStageDir picks StageDir, refusing a layout where even .scriptorium/
// is on another filesystem than the workspace: no install could be atomic.
func (w *Workspace) chooseStageDir() error {
	w.stageDir = w.RuntimeDir()
	if sameDevice(w.stageDir, w.root) {
		return nil
	}
	w.stageDir = w.metaPath()
	if sameDevice(w.stageDir, w.root) {
		return nil
	}
	return &LayoutError{Path: w.metaPath()}
}

// LayoutError is a workspace whose .scriptorium/ is on another filesystem
// than its files.
type LayoutError struct{ Path string }

func (e *LayoutError) Error() string {
	return e.Path + " is on another filesystem than the workspace: installs rename staged files into place, " +
		"which cannot cross filesystems; make it a directory of the workspace's filesystem (the runtime directory alone may be elsewhere)"
}
