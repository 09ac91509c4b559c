package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/workspace/faultfs"
)

// exdevUpdate is the install of the EXDEV tests: a new topic file.
var exdevUpdate = ftTx(0, ftCreate("topics/z.md", "# Z\n\nThe zymurgy notes. ^e000000a\n"))

// TestInstall_RenameAcrossFilesystems: a staged file that cannot be
// renamed into the workspace (EXDEV: the stage is on another filesystem)
// is copied there instead, past the commit point, and the install
// completes (issue 24 §6; the fault seam stands in for /dev/shm).
func TestInstall_RenameAcrossFilesystems(t *testing.T) {
	ctx := context.Background()
	// A first run finds the rename of a staged file into the workspace.
	probe := ftFixture(t, "valid")
	pfs := faultfs.New()
	pe := ftOpen(t, probe, func(o *engine.Options) { o.FS = pfs })
	pfs.Start()
	if _, err := pe.Update(ctx, exdevUpdate); err != nil {
		t.Fatal(err)
	}
	at := -1
	for _, op := range pfs.Trace() {
		if op.Kind == faultfs.Rename && strings.Contains(op.Path, string(filepath.Separator)+"tx-") &&
			!strings.Contains(op.To, string(filepath.Separator)+"tx-") {
			at = op.Index
			break
		}
	}
	if at < 0 {
		t.Fatalf("no rename out of the stage in %v", pfs.Trace())
	}

	state := ftFixture(t, "valid")
	fsys := faultfs.New()
	e := ftOpen(t, state, func(o *engine.Options) { o.FS = fsys })
	fsys.Start()
	fsys.FailAt(at, syscall.EXDEV, false)
	if _, err := e.Update(ctx, exdevUpdate); err != nil {
		t.Fatalf("the install failed on EXDEV: %v", err)
	}
	if len(fsys.Injected()) != 1 {
		t.Fatalf("the fault was not injected: %v", fsys.Injected())
	}
	fsys.Stop()
	e.Close()
	e2 := ftOpen(t, state)
	if rep, err := e2.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	if data, err := os.ReadFile(filepath.Join(state, "memory", "topics", "z.md")); err != nil || !strings.Contains(string(data), "zymurgy") {
		t.Fatalf("topics/z.md: %q %v", data, err)
	}
	if rev, _ := e2.Revision(); rev != 1 {
		t.Errorf("revision %d, want 1", rev)
	}
}

// otherFilesystemDir returns a new directory under /dev/shm when that is
// another filesystem than dir's, or skips the test.
func otherFilesystemDir(t *testing.T, dir string) string {
	t.Helper()
	var a, b syscall.Stat_t
	if syscall.Stat("/dev/shm", &a) != nil || syscall.Stat(dir, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is not another filesystem here")
	}
	d, err := os.MkdirTemp("/dev/shm", "scriptorium-runtime-")
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// TestInstall_RuntimeOnAnotherFilesystem: with .scriptorium/runtime a
// symlink to /dev/shm, installs stage on the workspace's filesystem and
// every verb keeps opening the workspace (issue 24 §6).
func TestInstall_RuntimeOnAnotherFilesystem(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	ftOpen(t, state).Close()
	rt := filepath.Join(state, "memory", ".scriptorium", "runtime")
	shm := otherFilesystemDir(t, state)
	if err := os.RemoveAll(rt); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shm, rt); err != nil {
		t.Fatal(err)
	}
	e := ftOpen(t, state)
	if _, err := e.Update(ctx, exdevUpdate); err != nil {
		t.Fatalf("install with the runtime dir on another filesystem: %v", err)
	}
	if _, err := e.Search(ctx, result.SearchQuery{Text: "zymurgy"}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	e2 := ftOpen(t, state)
	if rep, err := e2.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	if rev, _ := e2.Revision(); rev != 1 {
		t.Errorf("revision %d, want 1", rev)
	}
	if res, err := e2.Search(ctx, result.SearchQuery{Text: "zymurgy"}); err != nil || len(res) != 1 {
		t.Errorf("search: %v %v", res, err)
	}
}

// TestRecovery_StageOnAnotherFilesystem: a committed stage left under a
// runtime dir on another filesystem (as an older version left it, its
// renames failing EXDEV) is completed by recovery, and the workspace
// opens (issue 24 §6: recovery never makes a workspace unopenable).
func TestRecovery_StageOnAnotherFilesystem(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	ftOpen(t, state).Close()
	meta := filepath.Join(state, "memory", ".scriptorium")
	shm := otherFilesystemDir(t, state)
	// An install that stops past its commit point (every operation from
	// the first rename out of the stage fails) leaves a committed stage.
	fsys := faultfs.New()
	e := ftOpen(t, state, func(o *engine.Options) { o.FS = fsys })
	fsys.Start()
	stopAt := func() int {
		probe := ftFixture(t, "valid")
		pfs := faultfs.New()
		pe := ftOpen(t, probe, func(o *engine.Options) { o.FS = pfs })
		pfs.Start()
		if _, err := pe.Update(ctx, exdevUpdate); err != nil {
			t.Fatal(err)
		}
		for _, op := range pfs.Trace() {
			if op.Kind == faultfs.Rename && strings.Contains(op.Path, string(filepath.Separator)+"tx-") &&
				!strings.Contains(op.To, string(filepath.Separator)+"tx-") {
				return op.Index
			}
		}
		t.Fatal("no rename out of the stage")
		return 0
	}()
	fsys.FailAt(stopAt, syscall.EIO, true)
	if _, err := e.Update(ctx, exdevUpdate); err == nil {
		t.Fatal("the faulted install succeeded")
	}
	fsys.Stop()
	e.Close()
	// Move the committed stage to the runtime dir on /dev/shm.
	stages, _ := filepath.Glob(filepath.Join(meta, "runtime", "tx-*"))
	if len(stages) != 1 {
		t.Fatalf("stages %v", stages)
	}
	moved := filepath.Join(shm, filepath.Base(stages[0]))
	if err := os.CopyFS(moved, os.DirFS(stages[0])); err != nil {
		t.Fatal(err)
	}
	rt := filepath.Join(meta, "runtime")
	if err := os.RemoveAll(rt); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(shm, rt); err != nil {
		t.Fatal(err)
	}
	e2, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		t.Fatalf("the workspace does not open: %v", err)
	}
	defer e2.Close()
	if rep, err := e2.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	if rev, _ := e2.Revision(); rev != 1 {
		t.Errorf("revision %d, want 1: the committed install was not completed", rev)
	}
	if left, _ := filepath.Glob(filepath.Join(shm, "tx-*")); len(left) > 0 {
		t.Errorf("the stage is still there: %v", left)
	}
}
