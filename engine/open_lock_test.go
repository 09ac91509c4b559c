package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/errcode"
	"scriptorium/workspace"
)

// Readers open without the lock when nothing needs finishing, so a writer
// holding it (say, for a long model call) never blocks verify or get; an
// interrupted install, however, must be finished under the lock first.
func TestOpen_LockOnlyWhenRecoveryIsDue(t *testing.T) {
	state := t.TempDir()
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	w, err := workspace.Open(workspace.MemoryDir(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	release, err := w.Lock(ctx, workspace.LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	e, err = Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatalf("open with nothing to recover waited for the lock: %v", err)
	}
	if _, err := e.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	e.Close()

	if err := os.Mkdir(filepath.Join(w.RuntimeDir(), "tx-interrupted"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, Options{StateDir: state})
	if errcode.As(err).Code != errcode.LockBusy {
		t.Fatalf("open with a stage to discard while the lock is held: %v, want LOCK_BUSY", err)
	}
	release()
	e, err = Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := os.Stat(filepath.Join(w.RuntimeDir(), "tx-interrupted")); !os.IsNotExist(err) {
		t.Errorf("the incomplete stage was not discarded: %v", err)
	}
}
