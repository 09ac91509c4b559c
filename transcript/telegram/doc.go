// Package telegram parses a Telegram Desktop JSON export (result.json, from
// Settings › Advanced › Export Telegram data, format "Machine-readable JSON")
// into transcript turns: every message a person, bot or channel sent, one
// session per chat and per forum topic.
//
// It owns the mapping from the export's chats, message types, text parts and
// media to turns and skip reasons; it streams the file (one chat's messages
// at a time; Stream also hands the turns over a chunk at a time) and never
// touches the filesystem.
//
// The format, as Telegram Desktop writes it (export_output_json.cpp):
//
//	one chat:     {"name", "type", "id", "messages": [message, ...]}
//	whole account: {"about", "personal_information", ..., "chats": {"about", "list": [chat, ...]},
//	               "left_chats": {"about", "list": [chat, ...]}, ...}
//	message:      {"id", "type": "message"|"service"|"unsupported", "date", "date_unixtime",
//	               "edited", "edited_unixtime", "from", "from_id", "reply_to_message_id",
//	               "reply_to_peer_id", "action", "title", "photo", "file", "file_name",
//	               "media_type", ..., "text", "text_entities"}
//
// Decisions:
//   - Session: the chat's peer id as from_id spells peers ("user123" for a
//     personal, bot or saved-messages chat, "chat45" for a basic group,
//     "channel678" for a supergroup or channel), a bare id for an unknown
//     type. A forum topic is its own session "<chat>.topic<root>", where root
//     is the id of the topic's topic_created service message. The export
//     records no topic ids: a message is in a topic when it replies to the
//     root or to a message already in the topic; everything else (the
//     General topic, or a reply whose target is not in the export) is the
//     chat's own session.
//   - A turn's id is the message id as exported, which is per chat (the
//     history of a basic group migrated to a supergroup comes with ids
//     shifted below zero by Telegram Desktop, so they never collide). When
//     two messages of one chat share an id, the later one is kept and the
//     other counted as duplicate_id.
//   - Order: each session is chained in time order (date_unixtime, then id),
//     each turn's Parent the previous turn of its session.
//   - ReplyTo is reply_to_message_id when that message is a turn of the same
//     session; a reply to a topic's root is no reply; otherwise the turn is
//     kept without ReplyTo and the lost link counted (reply_unresolved,
//     reply_other_chat).
//   - Content is the message text exactly: a plain string, or the
//     concatenated visible text of a list of strings and entity objects (a
//     text link keeps its label). Media becomes a placeholder "[kind detail]",
//     or "[kind detail: caption]" with a caption: [photo], [file report.pdf],
//     [sticker 😀], [voice message], [video message], [animation],
//     [video clip.mp4], [audio Performer – Title], [contact Name +phone],
//     [location 52.5, 13.4], [live location], [venue Name, Address],
//     [game Title], [invoice Title], [giveaway], [paid media]. Only fields
//     that a second export repeats are used (never the file path, which
//     depends on the export's media settings, nor a live location's moving
//     position), so a re-export gives the same content. A poll is text:
//     "[poll] question" and one "- answer" line per answer, without votes;
//     a to-do list likewise ("[todo list] title").
//   - An edited message carries its last text (the export has no history).
//   - Speaker: SpeakerID is from_id ("user123", "channel456": a channel
//     posting as itself is a sender like any other; a bare number in old
//     exports is read as "user<n>"; a message without from_id is the chat's
//     own post, as Telegram Desktop treats it), SpeakerDisplay is from.
//   - Time: date_unixtime; old exports without it give a zone-less date,
//     read in Options.Location (UTC when nil).
//   - Group is set for groups, supergroups and channels; Title is the chat's
//     name, "<chat name> / <topic title>" for a topic (the title it was created
//     with: a topic_edit service message does not say which topic it renames).
//     Role is user and Tier is left to the importer.
//   - Telegram Desktop writes control characters other than \n \r \t as \xHH,
//     which is not JSON; they are read as the characters they stand for.
//
// Skip reasons (Result.Skipped): join, leave, pin, chat_change, call and
// service for service messages by their action; unsupported, unknown_type,
// empty (no text, no media), nul_character, duplicate_id; and the link
// reasons reply_unresolved and reply_other_chat. A Telegram export holds no
// deleted messages, so there are none to count.
package telegram
