// Package gemini parses Gemini CLI sessions
// (~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl, and the .json
// files of older versions) into transcript turns: what the person typed and
// Gemini's answers, chained in the order they were said, with a branch
// where the person rewound the conversation.
//
// It owns the mapping from the CLI's chat recording (ChatRecordingService,
// chatRecordingTypes.ts) to turns and skip reasons; it reads bytes only,
// streaming, and never touches the filesystem.
//
// # The format, as this package reads it
//
// A message is a MessageRecord {id, timestamp, type, content,
// displayContent?} with type user, gemini, info, error or warning; a gemini
// message adds toolCalls, thoughts, tokens and model. content is a
// PartListUnion: a string, a Part or a list of them, a Part being {text}
// (thought: true marks reasoning), {functionCall}, {functionResponse},
// {inlineData}, {fileData}, …
//
// The JSONL log is one record per line, classified by key as the CLI's
// loader does: {"$rewindTo": id} (drop that message and what follows it),
// a message (an "id"), {"$set": {…}} (merge into the metadata), and the
// metadata line {sessionId, projectHash, startTime, lastUpdated, kind?,
// directories?, summary?} that opens the file. The older JSON form is one
// ConversationRecord {sessionId, projectHash, startTime, lastUpdated,
// messages, summary?, directories?, kind?}, pretty-printed; Parse tells the
// two apart by whether the first line is a whole JSON object by itself.
//
// # Decisions
//   - A turn's id is the message's own id, and the session the sessionId,
//     so the JSON form and the JSONL log the CLI migrates it to on resume
//     give the same turns.
//   - A user message is a prompt by the CLI's own rule for resuming a
//     session (isIgnoredUserContent): not a tool's functionResponse (newer
//     versions record one as a user message), not empty, not a slash
//     command or ? help (command), not the <session_context> or
//     <hook_context> it injects (context). Its text is displayContent when
//     the CLI kept one, what the person typed before @file references were
//     expanded into content, else the text of content.
//   - A gemini message's turn is its text parts, joined with nothing
//     between them as the CLI joins them; its tool calls, thoughts and
//     thought parts are counted. info, error and warning messages are not
//     turns.
//   - Gemini writes a message again, whole, each time it updates it (tokens,
//     tool results): the last copy's text wins and the turn keeps its first
//     place; the extra copies are counted as update.
//   - Each message hangs from the turn before it. A $rewindTo makes the
//     next messages hang from the turn before the message it names (a new
//     root for an id it does not know): the rewound messages were said, so
//     they stay, as a branch, the way a ChatGPT edit stays.
//   - A $set of messages rewrites the history the model sees next (after a
//     compression, or a request that failed): what was said was already
//     read, so it is skipped, and with it the summaries it injects.
//   - Title is the latest summary (the one-line name the CLI gives a
//     session), Project the first of the latest directories (the workspace
//     root the CLI was started in), else the working directory its
//     <session_context> names (projectHash is only a hash), and a kind
//     "subagent" session is Synthetic (the main agent wrote its prompts). These are the latest values in the file, on every
//     turn: a grown session can name or place its earlier turns; their ids
//     and parents do not change.
//   - All turns have tier owner and no speaker: it is the owner's CLI. Text
//     is kept byte for byte.
//   - An invalid last line is a log still being written and is counted as
//     truncated_last_line; an invalid line before another is an error, with
//     its line number. In the JSON form an error names the message as
//     messages[N] and its id.
package gemini
