// Package discord parses DiscordChatExporter's JSON exports (a guild
// channel, a thread, a DM or a group DM) into transcript turns: what people
// wrote, each channel or thread one session.
//
// It owns the mapping from the exporter's message types, authors,
// references, attachments, stickers and embeds to turns and skip reasons. It
// reads bytes (one file, or the files of a folder the caller walked) and
// never touches the filesystem.
//
// The file as this package reads it (Tyrrrz/DiscordChatExporter's
// JsonMessageWriter; other keys are ignored):
//
//	{"guild": {"id", "name"},
//	 "channel": {"id", "type": "GuildTextChat"|"DirectTextChat"|"DirectGroupTextChat"|"GuildPublicThread"…,
//	             "category", "name"},
//	 "exportedAt": "2024-03-05T20:00:00.123+01:00",
//	 "messages": [{"id", "type": "Default"|"Reply"|…|"20", "timestamp", "timestampEdited",
//	               "content", "author": {"id", "name", "nickname"},
//	               "attachments": [{"fileName"}], "embeds": [{"title", "description", "url"}],
//	               "stickers": [{"name"}], "mentions": [{"id", "name", "nickname"}],
//	               "reference": {"type", "messageId", "channelId"}}]}
//
// Decisions:
//   - A session is a channel (session id: channel.id), and a thread, which
//     the exporter writes as its own channel, is its own session. Message
//     ids are Discord's. A channel one file holds is chained in the file's
//     order, which is the exporter's (oldest first), so that one file
//     streams (Stream; memory is a chunk and the ids read, not the file);
//     a message id read before in the file is a duplicate, the first copy
//     kept (it may be stored already). A channel several files hold is
//     merged and chained in time order (then id order): ParseFiles holds
//     the files; StreamFiles reads them twice, first to keep, per message
//     id, which copy wins, then merging the exports as they are read
//     (each in time order, as the exporter writes them; one that is not
//     has its channel merged whole). Sessions come out in channel id
//     order.
//   - A reply (a reference to a message of the same channel, not a forward)
//     sets ReplyTo to the referenced id, also when that message is older than
//     the export: the reference is the message's own, so it does not change
//     when a later export covers more. A reference to itself is dropped.
//   - Speaker: author.id, shown as author.nickname (the exporter writes the
//     member's display name there), else author.name. Bots are senders
//     like anyone else; a slash command's answer (type 20) is the bot's.
//   - Content: the text as exported (the exporter has already turned
//     mentions into @names unless markdown was kept raw, when <@id> is named
//     from the message's mentions), byte-exact; then one line per
//     attachment, "[image: name]", "[video: name]", "[audio: name]" or
//     "[file: name]" by extension, and per sticker "[sticker: name]". A
//     message with none of these (a bot's embed) is "[embed: title]" and
//     the embed's description. Whitespace-only text counts as none.
//   - Title is channel.name; Group is false only for a 1:1 DM
//     (DirectTextChat).
//   - ParseFiles and StreamFiles merge exports: a message two files carry (overlapping
//     exports of one channel) is kept once, the copy with the later
//     timestampEdited, else the later exportedAt, else the file whose name
//     sorts last; the other copy is counted as a duplicate. A channel's name
//     and type come from its latest export. Files that are not JSON exports
//     (downloaded media, HTML or CSV exports) are counted as other_file.
//
// Skipped and counted (Result.Skipped): joins (RecipientAdd,
// GuildMemberJoin), leaves, calls, channel name and icon changes, pins,
// "started a thread" notices, thread starter messages, other system types
// (boosts, AutoMod, stage events, poll results…), types this package does
// not know, messages without an author id, empty messages, text with
// U+0000, duplicates, and other files. The constants Reason* name them.
package discord
