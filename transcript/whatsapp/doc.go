// Package whatsapp parses the text file of WhatsApp's "Export chat" (iOS
// _chat.txt, Android "WhatsApp Chat with ….txt") into transcript turns: one
// session per export, one turn per message a person sent.
//
// It owns the reading of WhatsApp's line layouts across locales, the
// date-order guess, and the mapping of media, deleted, edited and system
// lines to turns and skip reasons; it reads bytes only and never touches
// the filesystem.
//
// The format, as the phones write it:
//
//	iOS:     ‎[07.06.23, 20:28:13] Name: text          (U+200E before system and media lines)
//	         [6/7/23, 8:28:13 PM] Name: text            (U+202F before AM/PM)
//	Android: 12/31/23, 9:15 PM - Name: text
//	         31.12.23, 21:15 - Name added Other          (a system line: no "Name: ")
//
// A line that starts with a date and time in the export's layout starts a
// message; every other line continues the message before it. Times are the
// phone's wall-clock time with no zone; senders are names (as the exporting
// phone's contacts spell them) or phone numbers, never ids.
//
// Decisions:
//   - Layout: the first line fixes it (brackets or " - ", date and time
//     separators, seconds, AM/PM); a later line in another layout is text
//     someone pasted and continues its message. Lines in layouts that put a
//     meaningful word before the time (Korean, Chinese) are refused rather
//     than read at the wrong hour.
//   - Date order (day/month/year, month/day/year or year/month/day) is
//     decided for the whole file: a four-digit first number is a year; a
//     number above 12 in first or second place is the day; otherwise the
//     order in which the dates never go backwards; otherwise "/" with AM/PM
//     is month-first (US) and everything else day-first. Options.DateOrder
//     forces it. The file is read once; every entry's date numbers are kept
//     (besides the messages' text) until the order is known, then a second
//     pass over that list gives ids and times, and Stream hands the turns
//     over a chunk at a time.
//   - Session: Options.Session, else "wa-" and 16 hex digits of SHA-256 of
//     the date and time, as written, of the first two entries (the
//     encryption notice and the chat's first message or group creation),
//     which a later, longer export of the same chat repeats. Names are left
//     out because renaming a contact or an iOS group changes them. Two chats
//     that began in the same minute would share a session, and the store
//     would refuse the second file's clashing ids rather than mix them; an
//     export cut to its last 40,000 messages starts elsewhere. The importer
//     should pass a session name when it knows the chat.
//   - A turn's id is the wall-clock minute (or second, when the export has
//     seconds) as written, and the entry's ordinal within it, counting every
//     line that starts a message: "20231231T2115-2". A later export of the
//     same chat adds lines after the earlier ones, so earlier ids stay; the
//     id does not depend on Options.Location.
//   - Order: turns are chained in file order (WhatsApp's order), each turn's
//     Parent the previous turn. A WhatsApp export records no replies.
//   - Content is the message text byte for byte, all its lines, with their
//     own line ends (a CRLF file keeps CRLF inside a message); only what
//     WhatsApp adds is removed: the U+200E before an iOS body and the
//     "<This message was edited>" marker (the text is already the last one).
//     Media becomes a placeholder "[kind detail]", or "[kind detail: caption]"
//     when a caption follows: [media] (Android without media), [photo],
//     [video], [audio], [voice message], [sticker], [GIF], [file Report.pdf],
//     [contact Name], [location https://maps.google.com/?q=…], [live location].
//     A poll is text ("POLL:", the question, "OPTION: …" lines) without its
//     vote counts, which change with every export.
//   - Speaker: SpeakerDisplay is the sender's name with WhatsApp's additions
//     removed: the direction and embedding marks U+200E, U+200F,
//     U+202A–U+202E and U+2066–U+2069 anywhere (phone numbers come wrapped
//     in U+202A…U+202C), then a leading "~" (a sender not in the exporter's
//     contacts), then U+0020, U+00A0 and U+202F at either end. SpeakerID is
//     empty: the export has no ids.
//   - Group: Options.Group, else true when a system line only a group has
//     (created, added, joined, left, removed, subject or icon changes) or at
//     least three people sent messages. Both only grow as a chat grows, so
//     a later export never turns a group back into a one-to-one chat.
//   - Title: Options.Title, else the group name the last creation or subject
//     line quotes, else (iOS) the name system lines are written under when
//     nobody of that name sent a message. Role is user; Tier is left to the
//     importer; times are converted from Options.Location (UTC when nil).
//   - Languages: the placeholders, deletions, edits and system lines are
//     recognised in English and German, most of them also in Spanish,
//     French, Portuguese, Italian and Dutch (see phrases.go). Elsewhere a
//     line without a sender, or an iOS body starting with U+200E, is still a
//     system line; only its skip reason falls back to "system".
//
// Skip reasons (Result.Skipped): encryption_notice, join, leave,
// number_change, chat_change, pin, call and system for system lines;
// deleted ("This message was deleted", "You deleted this message"), waiting
// ("Waiting for this message"), empty (a sender and no text), nul_character.
package whatsapp
