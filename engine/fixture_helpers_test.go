package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/trust"
	"scriptorium/workspace/treetest"
)

// The helpers in this file serve the end-to-end engine tests: they copy a
// fixture workspace from ../testdata/ws into a temp dir and open it.

// ftFixture copies ../testdata/ws/<name>/state into a fresh temp dir and
// returns the copy: tests never open testdata itself, because opening a
// workspace creates .scriptorium/.
func ftFixture(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "state")
	src := filepath.Join("..", "testdata", "ws", name, "state")
	if err := treetest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// ftEmpty returns a state dir whose workspace holds the given files
// (workspace-relative path -> content).
func ftEmpty(t *testing.T, files map[string]string) string {
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

// ftClock is a fixed clock, so history times are predictable.
func ftClock() time.Time { return time.Date(2026, 8, 11, 9, 0, 0, 0, time.UTC) }

// ftOpen opens an owner engine on state, closed when the test ends.
func ftOpen(t *testing.T, state string, mod ...func(*engine.Options)) *engine.Engine {
	t.Helper()
	opts := engine.Options{StateDir: state, Interactive: true, Now: ftClock}
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

// asPaired opens the engine as the paired tier.
func asPaired(o *engine.Options) { o.Tier = trust.Paired }

// ftTree maps every file (and symlink) under the workspace, except the
// runtime state in .scriptorium/, to a digest of its bytes.
func ftTree(t *testing.T, state string) map[string]string {
	t.Helper()
	st, err := treetest.State(filepath.Join(state, "memory"), ".scriptorium")
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// ftTreeDiff lists the paths whose state differs, "" when none.
func ftTreeDiff(a, b map[string]string) string { return treetest.Diff(a, b) }

// ftRead reads a workspace file.
func ftRead(t *testing.T, state, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "memory", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// ftExists reports whether a workspace path exists (symlinks not followed).
func ftExists(state, rel string) bool {
	_, err := os.Lstat(filepath.Join(state, "memory", filepath.FromSlash(rel)))
	return err == nil
}

// ftTx builds a transaction.
func ftTx(base int64, edits ...engine.Edit) engine.Transaction {
	return engine.Transaction{BaseRevision: &base, Edits: edits}
}

func ftCreate(p, c string) engine.Edit  { return engine.Edit{Op: "create", Path: p, Content: &c} }
func ftReplace(p, c string) engine.Edit { return engine.Edit{Op: "replace", Path: p, Content: &c} }
func ftAppend(p, c string) engine.Edit  { return engine.Edit{Op: "append", Path: p, Content: &c} }
func ftDelete(p string) engine.Edit     { return engine.Edit{Op: "delete", Path: p} }
func ftMove(p, to string) engine.Edit   { return engine.Edit{Op: "move", Path: p, To: to} }

// ftCode returns the engine error code of err ("" for nil).
func ftCode(err error) engine.Code {
	if err == nil {
		return ""
	}
	var e *engine.Error
	if !errors.As(err, &e) {
		return "not-an-engine-error"
	}
	return e.Code
}

// ftViolations returns the violations an engine error carries.
func ftViolations(err error) []engine.Violation {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Violations
	}
	return nil
}

// ftRevision reads the installed revision through status.
func ftRevision(t *testing.T, e *engine.Engine) int64 {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Revision
}

// ftHistory reads the history rows.
func ftHistory(t *testing.T, e *engine.Engine) []engine.HistoryEntry {
	t.Helper()
	h, err := e.History(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// ftVerifyClean fails the test when the workspace has violations.
func ftVerifyClean(t *testing.T, e *engine.Engine) {
	t.Helper()
	rep, err := e.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Errorf("workspace has violations: %v", rep.Violations)
	}
}

// Anchors of the sources in the "valid" fixture.
const (
	groupDev = "sources/openprogram/_v2/group-dev.md"
	anchorM1 = "source-fcdcde36" // openprogram/group-dev/m1, trusted
	anchorM3 = "source-b06bef3f" // openprogram/group-dev/m3, pending
	anchorM5 = "source-28a6d28c" // openprogram/group-dev/m5, pending, uncited
)

// ftCiting returns a topic file at depth one below topics/ (for example
// topics/x.md) holding one block citing openprogram/group-dev/m1.
func ftCiting(id, label, text string) string {
	return "# T\n\n" + text + "[^" + label + "] ^" + id + "\n\n" +
		"[^" + label + "]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m1](../" + groupDev + "#" + anchorM1 + ")\n"
}
