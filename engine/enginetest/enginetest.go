package enginetest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/result"
	_ "scriptorium/engine/search" // the search service registers itself with the core
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/treetest"
)

// moduleRoot is the repository root, found from this file's path so the
// helpers work from any package directory.
func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Fixture copies ../testdata/ws/<name>/state into a fresh temp dir and
// returns the copy: tests never open testdata itself, because opening a
// workspace creates .scriptorium/.
func Fixture(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "state")
	src := filepath.Join(moduleRoot(), "testdata", "ws", name, "state")
	if err := treetest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// Empty returns a state dir whose workspace holds the given files
// (workspace-relative path -> content).
func Empty(t *testing.T, files map[string]string) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	for p, c := range files {
		full := filepath.Join(state, "memory", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return state
}

// Clock is a fixed clock, so history times are predictable.
func Clock() time.Time { return time.Date(2026, 8, 11, 9, 0, 0, 0, time.UTC) }

// Open opens an owner engine on state, with the writer as the
// promotion distiller (as the CLI opens it), closed when the test ends.
func Open(t *testing.T, state string, mod ...func(*engine.Options)) *engine.Engine {
	t.Helper()
	opts := engine.Options{StateDir: state, Interactive: true, Now: Clock, Distiller: writer.Distiller{}}
	for _, m := range mod {
		m(&opts)
	}
	e, err := engine.Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("open %s: %v", state, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// Update installs edits on e's current revision and returns the new one.
func Update(t *testing.T, e *engine.Engine, edits ...result.Edit) int64 {
	t.Helper()
	res, err := e.Update(context.Background(), Tx(Revision(t, e), edits...))
	if err != nil {
		t.Fatal(err)
	}
	return res.Revision
}

// Passes lists e's sleep passes (audit.Passes), failing the test on an
// error.
func Passes(t *testing.T, e *engine.Engine) []result.PassReport {
	t.Helper()
	ps, err := audit.Passes(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// AsPaired opens the engine as the paired tier.
func AsPaired(o *engine.Options) { o.Tier = trust.Paired }

// Tree maps every file (and symlink) under the workspace, except the
// runtime state in .scriptorium/, to a digest of its bytes.
func Tree(t *testing.T, state string) map[string]string {
	t.Helper()
	st, err := treetest.State(filepath.Join(state, "memory"), workspace.MetaDir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TreeDiff lists the paths whose state differs, "" when none.
func TreeDiff(a, b map[string]string) string { return treetest.Diff(a, b) }

// Read reads a workspace file.
func Read(t *testing.T, state, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "memory", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Exists reports whether a workspace path exists (symlinks not followed).
func Exists(state, rel string) bool {
	_, err := os.Lstat(filepath.Join(state, "memory", filepath.FromSlash(rel)))
	return err == nil
}

// Tx builds a transaction.
func Tx(base int64, edits ...result.Edit) result.Transaction {
	return result.Transaction{BaseRevision: &base, Edits: edits}
}

func Create(p, c string) result.Edit  { return result.Edit{Op: "create", Path: p, Content: &c} }
func Replace(p, c string) result.Edit { return result.Edit{Op: "replace", Path: p, Content: &c} }
func Append(p, c string) result.Edit  { return result.Edit{Op: "append", Path: p, Content: &c} }
func Delete(p string) result.Edit     { return result.Edit{Op: "delete", Path: p} }
func Move(p, to string) result.Edit   { return result.Edit{Op: "move", Path: p, To: to} }

// Code returns the engine error code of err ("" for nil).
func Code(err error) errcode.Code {
	if err == nil {
		return ""
	}
	var e *errcode.Error
	if !errors.As(err, &e) {
		return "not-an-engine-error"
	}
	return e.Code
}

// Violations returns the violations an engine error carries.
func Violations(err error) []errcode.Violation {
	var e *errcode.Error
	if errors.As(err, &e) {
		return e.Violations
	}
	return nil
}

// Revision reads the installed revision through status.
func Revision(t *testing.T, e *engine.Engine) int64 {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Revision
}

// History reads the history rows.
func History(t *testing.T, e *engine.Engine) []result.HistoryEntry {
	t.Helper()
	h, err := audit.History(context.Background(), e, 0)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// VerifyClean fails the test when the workspace has violations.
func VerifyClean(t *testing.T, e *engine.Engine) {
	t.Helper()
	rep, err := e.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Errorf("workspace has violations: %v", rep.Violations)
	}
}
