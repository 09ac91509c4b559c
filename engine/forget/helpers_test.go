package forget_test

import "scriptorium/engine/enginetest"

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
	ftCreate      = enginetest.Create
	ftCode        = enginetest.Code
	ftViolations  = enginetest.Violations
	ftRevision    = enginetest.Revision
	ftHistory     = enginetest.History
	ftVerifyClean = enginetest.VerifyClean
	ftUpdate      = enginetest.Update
)
