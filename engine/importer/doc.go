// Package importer is the one import service: it lists the files a path
// names, detects each file's format by its content (transcript.Detect),
// parses it (transcript/…), stores its turns in sessions.db and maps every
// problem back to its file and line. The CLI's import verb, the agent hook
// and the demo call it; nothing else reads transcripts into the store.
//
// An import is one sessions.ImportBatch: the files are read, parsed and
// stored one at a time inside a single sessions.db transaction, so memory
// holds one file (and the held-back turns whose parent is still to come),
// never the whole input, and the import stores every file or none. A file
// that does not parse is reported with its line (or record); once one has
// failed, the rest are parsed to report their problems too, but nothing more
// is stored. A turn the store refuses is reported at its file's line: a
// JSONL file's own line, a parsed turn by its id and session (and, for a
// Claude Code transcript, the line that holds it).
//
// Formats are a table (formats.go): adding one is a row with its name, the
// files a directory walk takes for it and its parser. Turns whose parser
// leaves the sender's tier open (a group chat) get it from Options.Senders.
// A turn's reply target, project and chat title are stored with the node as
// metadata (sessions.MetaReplyTo, MetaProject, MetaTitle) for the writer.
//
// On a state dir without sessions.db, the import writes a private staging
// file and makes it sessions.db only when it commits, so that a rejected
// first import leaves nothing behind (store.go).
package importer
