package writer_test

import "scriptorium/engine/enginetest"

// The shared fixture helpers, under the names the writer tests were
// written with when they lived in package engine.
var (
	ftEmpty       = enginetest.Empty
	ftClock       = enginetest.Clock
	ftOpen        = enginetest.Open
	ftTree        = enginetest.Tree
	ftTreeDiff    = enginetest.TreeDiff
	ftRead        = enginetest.Read
	ftCode        = enginetest.Code
	ftRevision    = enginetest.Revision
	ftHistory     = enginetest.History
	ftVerifyClean = enginetest.VerifyClean
)
