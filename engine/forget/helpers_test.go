package forget_test

import (
	"context"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
)

// The engine's fixture helpers (package enginetest), under the names the
// forget tests were written with.
var (
	ftFixture     = enginetest.Fixture
	ftEmpty       = enginetest.Empty
	ftOpen        = enginetest.Open
	asPaired      = enginetest.AsPaired
	ftTree        = enginetest.Tree
	ftTreeDiff    = enginetest.TreeDiff
	ftRead        = enginetest.Read
	ftExists      = enginetest.Exists
	ftTx          = enginetest.Tx
	ftCreate      = enginetest.Create
	ftCode        = enginetest.Code
	ftViolations  = enginetest.Violations
	ftRevision    = enginetest.Revision
	ftHistory     = enginetest.History
	ftVerifyClean = enginetest.VerifyClean
)

// revertUpdate installs edits on the current revision and returns the new
// one.
func revertUpdate(t *testing.T, e *engine.Engine, edits ...result.Edit) int64 {
	t.Helper()
	res, err := e.Update(context.Background(), ftTx(ftRevision(t, e), edits...))
	if err != nil {
		t.Fatal(err)
	}
	return res.Revision
}
