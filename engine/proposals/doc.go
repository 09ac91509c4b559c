// Package proposals holds sleep passes, writer batches and a paired
// caller's edits of topics/core.md (Submit) that wait for the owner: each
// is stored under .scriptorium/proposals/ as the topic files' bytes before
// and after, and accept installs them (rebased onto the current files when
// the base is stale) while decline drops them.
package proposals
