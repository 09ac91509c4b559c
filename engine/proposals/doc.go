// Package proposals holds sleep passes and writer batches that wait for
// the owner: each is stored under .scriptorium/proposals/ as the topic
// files' bytes before and after, and accept installs them (rebased onto
// the current files when the base is stale) while decline drops them.
package proposals
