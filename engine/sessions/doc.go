// Package sessions is the conversation store, <state>/sessions.db (SPEC §7).
//
// A session is a DAG of nodes: every node names at most one parent, and a
// session forks wherever two nodes share a parent. Each leaf is the tip of a
// branch. Nodes are immutable once stored, except for their metadata, which
// carries the written marker: after the writer installs a batch it sets
// metadata.memory_written_scriptorium to the workspace id on the batch's
// nodes. What is still owed to memory is computed per branch, never from a
// position: walk back from the tip to the newest node marked for this
// workspace and take the unmarked suffix, oldest first. A marker on a shared
// prefix therefore serves every branch that grows from it.
//
// The store records who said what (speaker id and display name as structured
// fields, the sender's trust tier and whether it was a group chat) but makes
// no trust decision: the engine routes unpaired direct messages away from
// memory and archives unpaired group messages as pending sources.
//
// The database uses WAL with synchronous=FULL, a busy timeout, and numbered
// schema migrations recorded in the schema_migrations table. A process should
// hold one Store per file.
package sessions
