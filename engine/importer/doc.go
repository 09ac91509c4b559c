// Package importer is the one import service: it lists what a path names
// (a file, stdin, a zip archive or a folder walked recursively), detects
// each file's format by its content (transcript/formats), parses it
// (transcript/…, a table of formats), gives group-chat senders their tier,
// stores the turns in sessions.db and maps every problem back to its file
// and line. The CLI's import verb, the agent hooks, the daemon's watched
// folders and the demo call it; nothing else reads transcripts into the
// store.
//
// An import is one sessions.ImportBatch: the inputs are read, parsed and
// stored one at a time inside a single sessions.db transaction, so memory
// holds one file (or one multi-file export; a Claude Code transcript, a
// ChatGPT, Telegram or Discord export only a chunk of its turns, a Slack
// export a day file and a chunk, stream.go) and the held-back turns whose parent is
// still to come, never the whole input, and the import stores everything
// or nothing. With Options.Resume a Claude Code transcript is read from
// the offset stored for it, within a byte and time bound, and the new
// offset is stored in the same transaction (resume.go): the hooks' import,
// which the daemon finishes (FinishUnfinished). A file that does not parse is reported with its
// line (or record); once one has failed, the rest are parsed to report
// their problems too, but nothing more is stored. A turn the store refuses
// is reported at its file's line: a JSONL file's own line, a parsed turn
// by its id and session (and, where the format has lines that name a
// turn, that line).
//
// Decisions:
//   - Formats are a table (formats.go): a row names the files a walk takes
//     for it, its parser (one file, or all the files of a multi-file
//     export: a Slack export, the Discord exports of one folder) and its
//     re-import policy. Chat exports change between two exports (an edited
//     message, a renamed sender, a deletion, a message still downloading),
//     so for them a stored node keeps what was stored and the difference is
//     counted as skipped changed (sessions.ImportBatch.AddChatNodes); our own
//     JSONL and the append-only Claude Code and ChatGPT transcripts keep the
//     strict rule.
//   - A walk (List) recognises a Slack export as the folder (or zip) that
//     holds its lists and a day file, merges the Discord exports of one
//     folder, reads a zip as a Slack export or as the files it holds, and
//     lists a file no format recognises with what it looks like (looks.go).
//     A file named on its own that no format recognises is a problem, with
//     what it looks like; JSON lines with fields of our own format are read
//     as JSONL so that the store names their bad lines.
//   - A WhatsApp export's chat name comes from its file name ("WhatsApp
//     Chat with Ana.txt") or its zip's ("WhatsApp Chat - Ana.zip" holding
//     _chat.txt) as the Title; the session stays the parser's own, derived
//     from the chat's first lines, so that renaming the chat or the file,
//     or unzipping it, never makes a second copy of the chat. Its times are
//     read in the machine's zone (Options.Location).
//   - Turns whose parser leaves the tier open (a group chat) get it from
//     the senders the owner named on this import (Options.Named, --owner and
//     --paired), else from the stored choice (Options.Senders, config.toml's
//     [trust.<provider>]), else unpaired. Named senders that some turn of a
//     provider has are merged into that provider's table just before the
//     import commits (trustconfig.go edits the file in place and checks
//     that the edit means what it should). A stored turn the writer has not
//     archived yet takes its sender's new tier; an archived one keeps it.
//   - Warnings (chats.go) say what the owner should know without failing
//     the import: per provider, the group chats whose messages will all be
//     pending because no owner is named (with the most active senders), the
//     unpaired senders who will be pending, the one-to-one chats whose
//     other side never enters memory (SPEC §5: an unpaired sender's direct
//     messages are dropped), a file that gave no turn and why, a named
//     sender no turn has.
//   - A turn's reply target, project and chat title are stored with the
//     node as metadata (sessions.MetaReplyTo, MetaProject, MetaTitle) for
//     the writer and the reviewer.
//
// On a state dir without sessions.db, the import writes a private staging
// file and makes it sessions.db only when it commits, so that a rejected
// first import leaves nothing behind (store.go).
package importer
