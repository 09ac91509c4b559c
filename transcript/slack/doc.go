// Package slack parses a Slack workspace export (the folder, or the files of
// its zip) into transcript turns: what people said in channels, private
// channels, group DMs and DMs, each thread its own session.
//
// It owns the mapping from Slack's export layout, message subtypes, markup
// and files to turns and skip reasons. It reads the bytes the caller hands
// it (transcript.File) and never touches the filesystem.
//
// The export as this package reads it:
//
//	channels.json   public channels   [{"id":"C…","name":"general","members":[…]}]; folder = name
//	groups.json     private channels  same shape; folder = name
//	mpims.json      group DMs         same shape, name "mpdm-ana--ben-1"; folder = name
//	file_conversations.json           conversations about a file or canvas; folder = name
//	dms.json        DMs               [{"id":"D…","members":["U1","U2"]}]; folder = id
//	users.json      (org_users.json in an Enterprise Grid export)
//	                                  [{"id":"U…","name":"ana","real_name":…,"profile":{"display_name":…}}]
//	canvases.json, lists.json, huddle_transcripts.json   counted as canvas, list, huddle
//	integration_logs.json, content_flags.json, .slack-manifest.json   ignored
//	<folder>/<YYYY-MM-DD>.json        the messages posted that day (UTC), an array
//
// The root is the folder holding the shallowest of these list files, so a
// zip that wraps the export in one folder reads the same; files outside it
// or that are neither list files nor day files (downloaded attachments,
// __MACOSX) are counted as other_file. A folder that no list names, or an
// export without channels.json, groups.json, mpims.json and dms.json, is an
// error. A folder is looked up by name, then by id (some exporters name
// every folder by id).
//
// Decisions:
//   - A session is a conversation (session id: its Slack id, "C05GENERAL1"),
//     and each thread is its own session, "<conversation id>-<thread_ts>",
//     which names the parent's message id in the conversation's session. A
//     message whose thread_ts differs from its ts is a reply and goes to its
//     thread; the parent, whose thread_ts is its own ts, stays where it was
//     posted, so a message that later gets replies keeps its session and id.
//     thread_broadcast replies go to the thread too. Replies spread across
//     days are gathered from every day file. A thread whose parent is
//     deleted (a tombstone) or outside the export is still a session.
//   - ReplyTo is left empty: Slack has no reply-to-a-message within a
//     session, only threads, and a reply's parent lives in another session.
//   - A message's id is its ts ("1709546400.000200"), its time the ts as UTC.
//     The export is read a day file at a time (Stream: memory is the root
//     files, a day and a chunk, not the export): conversations by id, each's
//     day files in date order, each day's messages in ts order. Each
//     session's turns are chained in that order (Parent = the previous kept
//     turn), so a thread's replies spread across days chain across them.
//     Output is that order: a thread's turns come between the channel's.
//   - Title is the conversation's name as the export gives it; a DM has
//     none, so it is its members' names joined with ", ". Group is true for
//     everything but DMs.
//   - Speaker: a file comment's commenter (comment.user), else the user,
//     else the bot (bot_id). The display name is users.json's display name,
//     else the full name, else the handle; for a user users.json does not
//     know (Slack Connect), the message's user_profile; for a bot, its
//     username or bot_profile.name. Bots are senders like anyone else.
//   - Content: the text with Slack's markup rendered (<@U…> and <#C…> as
//     @name and #name from users.json and the conversation lists, <!here>
//     as @here, <url|label> as "label (url)", &lt; &gt; &amp; decoded; see
//     renderer), otherwise byte-exact. Then one line per shared file:
//     "[image: name]", "[video: name]", "[audio: name]" or "[file: name]".
//     A message with neither text nor files uses its attachments' fallback
//     text (a bot's summary). Whitespace-only text counts as no text.
//   - The text is the export's, which is the last edit. When a ts appears
//     twice in one day file, the copy with the later edited.ts wins, else
//     the one read last; when it appears in two day files of a conversation
//     (a thread parent repeated with its replies), the earlier day's copy is
//     kept, as a store that took it already keeps it. The other copy is
//     counted as a duplicate.
//
// Skipped and counted (Result.Skipped): joins and leaves, topic and purpose
// changes, renames and archiving (channel_change), pins, deleted messages
// (tombstones), huddles, canvases and lists (messages, shared files and the
// root lists), bot and reminder notices (system), subtypes this package does
// not know, messages without a sender, empty messages, text with U+0000,
// duplicates, deleted and hidden files, and other files. The constants
// Reason* name them.
package slack
