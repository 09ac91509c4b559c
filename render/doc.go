// Package render builds the derived views of a memory workspace: the
// token-budgeted core.md, the timeline, recent_events.jsonl and
// relations.json (SPEC §8). Every output is deterministic: the same topics
// give the same bytes, whatever order they are passed in.
//
// The package is pure: it takes parsed topics (its own small input types,
// which the engine fills from the topic parser) and returns bytes; the
// engine writes them atomically. It never touches the filesystem.
//
// Trust is decided before rendering (SPEC §5): a Block with Trusted false
// is pending, and no pending block's text, footnotes or id reach any
// output. Core names pending ids in its report, and only there.
//
// Tokens are counted with o200k_base (CountTokens), embedded in the binary.
// A core render's reported token count is always the exact count of the
// bytes it returns, and a block is included only if the exact count of the
// render with it stays within the budget.
package render
