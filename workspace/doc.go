// Package workspace owns the on-disk layout of a Scriptorium memory
// workspace and the primitives every writer builds on: state directory
// resolution, the workspace tree and its runtime files
// (.scriptorium/workspace-id, revision, runtime/), crash-safe atomic file
// writes, the cross-process write lock and the one-time move of an old
// layout into <state>/memory-superseded/.
//
// The package knows nothing about archive or topic formats (see the
// sub-packages archive and topic) nor about transactions: the engine plugs
// its journal recovery in through Options.Recover, which Open runs under the
// write lock before anything else touches the tree.
//
// Files are read and written as bytes; no newline translation happens
// anywhere.
package workspace
