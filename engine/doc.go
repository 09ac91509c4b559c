// Package engine is the core of Scriptorium's memory: it opens a workspace
// (finishing an interrupted install and moving an old layout aside), gives
// a consistent read View (revision and files as one pair), validates and
// installs transactions crash-atomically, resolves trust and keeps the
// promotion ledger, renders the derived views, verifies, gets and searches.
// It knows no model, writer or schedule: those are services on its
// exported API (packages engine/writer, engine/sleep, engine/daemon), and
// where the core needs a service's work (promotion distils what it
// promotes) the service is handed in at Open as a small interface.
//
// The API, in the order a service uses it (its request and result types
// are engine/result's):
//
//	Open, Close                 open a state dir (Options: tier, clock, Distiller)
//	View                        a consistent read without the lock
//	Locked(fn(*Tx))             work under the write lock: Tx.View, Tx.Install
//	Plan, Install               validate a Change; install it crash-atomically
//	Update                      apply a caller's transaction (SPEC §6)
//	Verify, Get, Search         read verbs (SPEC §12)
//	PendingSources, Promote     the pending sources; promoting them (engine/review
//	                            lists the queue and rejects: out of it, still untrusted)
//	Core, TrustedTopics         core.md; topic files with their trusted blocks
//	                            (what engine/recall gives a prompt)
//	Records                     state.db (engine/records): history, the ledger,
//	                            the rejection log (engine/audit reads them)
//	                            (engine/passlog adds a pass's report; services
//	                            add their own events through Records)
//
// Markdown is the source of truth. topics/ and sources/ are the memory; the
// derived views (core.md, timeline/, recent_events.jsonl, relations.json)
// and the search index under .scriptorium/index are caches rebuilt from
// them, and a stale or broken cache is rebuilt, never trusted. state.db holds
// the records, not caches: the install history (with diffs and sleep-pass
// reports) and the promotion ledger with its rejection log.
//
// Every operation passes the trust gate (package trust) with the caller's tier;
// every failure is an *errcode.Error with a Code of SPEC §12's closed set.
// Writes serialise on the write lock; the install protocol (journal.go) leaves
// after a crash at any point exactly the old or exactly the new state.
package engine
