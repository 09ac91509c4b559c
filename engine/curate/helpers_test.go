package curate_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
	"scriptorium/engine/revert"
	"scriptorium/errcode"
)

var ctx = context.Background()

// open copies the valid fixture (core.md, people/craig.md linking into
// it, projects/legacy.md, v2 and legacy archives) and opens it as the
// owner.
func open(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	state := enginetest.Fixture(t, "valid")
	return enginetest.Open(t, state), state
}

// update installs one owner transaction of replaces and creates.
func update(t *testing.T, e *engine.Engine, edits ...result.Edit) {
	t.Helper()
	if _, err := e.Update(ctx, enginetest.Tx(enginetest.Revision(t, e), edits...)); err != nil {
		t.Fatal(err)
	}
}

// wantCode fails unless err carries code.
func wantCode(t *testing.T, err error, code errcode.Code) {
	t.Helper()
	if got := enginetest.Code(err); got != code {
		t.Fatalf("error = %v (%s), want %s", err, got, code)
	}
}

// unchanged fails when the workspace tree differs from before.
func unchanged(t *testing.T, state string, before map[string]string) {
	t.Helper()
	if d := enginetest.TreeDiff(before, enginetest.Tree(t, state)); d != "" {
		t.Errorf("a refused change touched the workspace: %s", d)
	}
}

// lastHistory is the newest history row.
func lastHistory(t *testing.T, e *engine.Engine) result.HistoryEntry {
	t.Helper()
	h := enginetest.History(t, e)
	if len(h) == 0 {
		t.Fatal("no history")
	}
	return h[0]
}

// auditDetail is the detail Audit gives revision rev.
func auditDetail(t *testing.T, e *engine.Engine, rev int64) string {
	t.Helper()
	rep, err := audit.Audit(ctx, e, result.AuditQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range rep.Entries {
		if en.Revision == rev {
			return en.Kind + ": " + en.Detail
		}
	}
	t.Fatalf("no audit entry for revision %d", rev)
	return ""
}

// revertRestores reverts rev and checks every file is back as it was.
func revertRestores(t *testing.T, e *engine.Engine, state string, rev int64, before map[string]string) {
	t.Helper()
	if _, err := revert.Revert(ctx, e, rev, false); err != nil {
		t.Fatalf("revert %d: %v", rev, err)
	}
	after := enginetest.Tree(t, state)
	for p, d := range before {
		if strings.HasPrefix(p, "topics/") && after[p] != d {
			t.Errorf("after revert %s differs", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && strings.HasPrefix(p, "topics/") {
			t.Errorf("after revert %s still exists", p)
		}
	}
}
