// Package engine is Scriptorium's memory engine: it opens a workspace
// (finishing an interrupted install and moving an old layout aside),
// validates and installs transactions crash-atomically, resolves trust,
// renders the derived views, keeps the search index current, runs the
// writer, backfill, promotion and the sleep pass, and offers the Backend
// contract to agent hosts.
//
// Markdown is the source of truth. topics/ and sources/ are the memory; the
// derived views (core.md, timeline/, recent_events.jsonl, relations.json)
// and the search index under .scriptorium/index are caches rebuilt from
// them, and a stale or broken cache is rebuilt, never trusted. state.db
// holds the two things that are records, not caches: the install history
// (with diffs and sleep-pass reports) and the promotion ledger.
//
// Every operation passes the trust gate (package trust) with the caller's
// tier, and every failure is an *Error whose Code is one of the closed set
// of SPEC §12. Writes serialise on the workspace write lock; the install
// protocol (journal.go) guarantees that after a crash at any point the
// workspace is exactly the old or exactly the new state.
package engine
