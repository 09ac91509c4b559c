package engine_test

import "scriptorium/engine/enginetest"

// The fixture helpers live in package enginetest, shared with the service
// tests; these names keep the engine tests reading as before.
var (
	ftFixture     = enginetest.Fixture
	ftEmpty       = enginetest.Empty
	ftClock       = enginetest.Clock
	ftOpen        = enginetest.Open
	asPaired      = enginetest.AsPaired
	ftTree        = enginetest.Tree
	ftTreeDiff    = enginetest.TreeDiff
	ftRead        = enginetest.Read
	ftExists      = enginetest.Exists
	ftTx          = enginetest.Tx
	ftCreate      = enginetest.Create
	ftReplace     = enginetest.Replace
	ftAppend      = enginetest.Append
	ftDelete      = enginetest.Delete
	ftMove        = enginetest.Move
	ftCode        = enginetest.Code
	ftViolations  = enginetest.Violations
	ftRevision    = enginetest.Revision
	ftHistory     = enginetest.History
	ftVerifyClean = enginetest.VerifyClean
)

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
