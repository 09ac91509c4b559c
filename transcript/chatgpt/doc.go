// Package chatgpt parses the conversations.json of a ChatGPT data export into
// transcript turns: what the account holder typed and the assistant's text, with
// every branch of each conversation's mapping kept as a DAG branch.
//
// It owns the mapping from ChatGPT's authors, content types and parts to turns
// and skip reasons; it streams the array one conversation at a time and never
// touches the filesystem.
//
// Decisions:
//   - Session is conversation_id, else id; a turn's id is its mapping node id,
//     and its parent is the nearest kept ancestor, so skipped system, tool and
//     hidden nodes are transparent.
//   - Turns come parents first: roots by node id, then depth first, siblings in
//     the order of their parent's children list (then by time and id), so the
//     same export always yields the same list.
//   - A message without create_time inherits its nearest kept ancestor's time,
//     else the conversation's create_time, else its update_time.
//   - Text parts of one message are joined with a blank line; voice-mode
//     audio transcriptions count as text. All turns have tier owner and no
//     speaker: the export holds one account's conversations.
//   - Every turn of a conversation carries its title as the export gives it
//     ("" when the title is null or not a string), so files are named by
//     the conversation they come from.
package chatgpt
