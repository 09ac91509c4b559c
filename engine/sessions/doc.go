// Package sessions is the conversation store, <state>/sessions.db (SPEC §7).
//
// # Identity
//
// A session is identified by its provider and its session id (SessionKey),
// and a node by provider, session and id (Key), as its source-id
// <provider>/<thread>/<message-id> says: chats number their messages per
// chat, so the same id in two sessions or two providers is two nodes, and a
// node's parent is looked up in the node's own provider and session. Every
// method that takes nodes takes Keys; an empty Provider in a key means
// DefaultProvider, as on an import line.
//
// A session is a DAG of nodes: every node names at most one parent, and a
// session forks wherever two nodes share a parent. Each leaf is the tip of a
// branch. Nodes are immutable once stored, except for their metadata, which
// carries the written marker (after the writer installs a batch it sets
// metadata.memory_written_scriptorium to the workspace id on the batch's
// nodes), and for the owner's forget, which blanks a node's content and
// display name and marks it (Store.Forget). What is still owed to memory is computed per branch, never from a
// position: walk back from the tip to the newest node marked for this
// workspace and take the unmarked suffix, oldest first. A marker on a shared
// prefix therefore serves every branch that grows from it.
//
// The store records who said what (speaker id and display name as structured
// fields, the sender's trust tier and whether it was a group chat) but makes
// no trust decision: the engine routes unpaired direct messages away from
// memory and archives unpaired group messages as pending sources.
//
// # What import accepts
//
// Import decides what the writer will be able to archive, so that no stored
// session can make the writer fail for good later. A demanding user's chat
// exports should import as they are, so odd names are mapped rather than
// refused wherever a mapping is safe; what cannot be mapped is refused with
// the line number and the reason, and then nothing of the file is stored.
//
//   - Session ids may be any text up to 200 bytes without control
//     characters. Each session gets, when it is first imported, the archive
//     thread name the writer will store it under (Session.Thread,
//     Node.Thread, Node.SourceID): the id itself when it is a portable file
//     name (letters, digits, marks and -_.~+=,@; no leading or trailing '.',
//     no ".." or "--", not a Windows device name such as CON), otherwise the
//     id with every other byte percent-encoded, so "con:aux<>|?*" is stored
//     under "con%3Aaux%3C%3E%7C%3F%2A" and "#general" under "%23general". A
//     name another session of the provider already holds, compared ignoring
//     case and Unicode form ("Chat" and "chat" would share one file on macOS
//     and Windows), gets "~" and a hash of the id appended. The thread name
//     never changes once stored.
//   - Providers name a directory, so they are refused, not mapped, unless
//     portable; a provider that differs from a stored one only by case or
//     Unicode form is refused too. A provider already in the store is
//     always accepted.
//   - Message ids (and parents) may not hold whitespace, control
//     characters, "--" or '>', which cannot appear in a source-id.
//   - speaker_display is stored normalised as the archive shows it
//     (archive.NormalizeLabelPart: one line, no brackets or colons, at most
//     64 characters), so "Ann\nSmith" is stored as "Ann Smith". speaker_id
//     is the sender's identity and is stored as it is, but it may not hold
//     control characters and must show something once normalised.
//   - A line may be at most 64 MiB. Reading stops at the first longer line,
//     which is reported with its number (so `import /dev/zero` ends at once),
//     and after 1000 bad lines.
//
// An import of many files (a folder of transcripts, an export) is one
// ImportBatch: each file is read, checked and stored in turn inside one
// transaction, so memory holds one file at a time, and the batch commits
// every file or none. Its new nodes are inserted 32 rows to a statement,
// seq and parent_seq numbered in Go; the pending_counts_insert trigger is
// dropped for the insert and created again at Commit, in the same
// transaction, after the cached counts of every session that gained nodes
// are dropped as the trigger would have (import_counts.go). A parsed transcript is handed over as Nodes
// (ImportBatch.AddNodes), checked as lines are; its Metadata (a JSON
// object: what a chat export says beyond the fields above, such as the
// message a turn replies to or the chat's title) is stored with the node.
//
// Re-importing is idempotent: a line whose key is stored (or appeared
// earlier in the file) with the same fields adds nothing and is counted in
// ImportResult.Duplicate; the same key with different fields is a bad line.
// Chat exports (ImportBatch.AddChatNodes) legitimately change between two
// imports (an edited message, a renamed sender, a deleted message that
// changes the next turn's parent): there a stored node keeps what was
// stored, archives being append-only, and the difference is counted
// (ImportResult.Changed); only the tier follows a later import, and only
// on a node the writer has not archived yet (ImportResult.Retiered).
// A line for a node the owner forgot adds nothing, whatever it holds
// (ImportResult.Forgotten): forgotten text never comes back by re-import.
//
// # The database
//
// The database uses WAL with synchronous=FULL, a busy timeout, and numbered
// schema migrations recorded in the schema_migrations table. A file no one
// else opens before it is closed (an import's staging file,
// Options.Unpublished) is written with an in-memory rollback journal
// instead, each page once, and switched to WAL when it is closed. Version 1 keyed
// nodes by id alone; version 2 keys them per session, and Open migrates an
// old file in place in one transaction, keeping every node, parent link and
// written marker. A migrated session keeps its id as thread name when the old
// writer could store it (its archive may exist under that name) and
// otherwise gets the name a new session would; stored display names are
// normalised as import now does. Migrations run inside BEGIN IMMEDIATE and read the version
// again once they hold the write lock, so several processes may open the
// same new or old file at once. A process should hold one Store per file.
package sessions
