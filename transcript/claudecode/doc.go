// Package claudecode parses Claude Code session transcripts
// (~/.claude/projects/<project>/<session-id>.jsonl) into transcript turns: what
// the person typed and the assistant's text, linked as the file's DAG.
//
// It owns the mapping from Claude Code's record types and content blocks to
// turns and skip reasons; it reads bytes only and never touches the filesystem.
//
// Decisions:
//   - One kept line is one turn, id = the line's uuid. Claude Code writes a
//     streamed assistant message as one line per content block sharing a
//     message.id; those lines are not merged, because a merged turn would change
//     content as a live transcript grows and the store refuses an id whose
//     content changed. Text blocks within one line are joined with a blank line.
//   - A skipped line (tool call, tool result, thinking, meta, system, ...) is
//     transparent: a child pointing at it is re-parented to the nearest kept
//     ancestor. A parent must appear earlier in the file; Claude Code only
//     appends, so this keeps the parse of a prefix a prefix of the parse.
//   - A compact boundary (system line, parentUuid null) links back through
//     logicalParentUuid, so the turns after a /compact continue the branch.
//     The compact-summary user line (isCompactSummary) is skipped as
//     compact_summary: it is a runtime digest of turns already imported.
//   - Sidechain (sub-agent) lines are Synthetic: the main agent wrote their
//     prompts. All turns have tier owner and no speaker: it is the owner's CLI.
//   - A turn's Project is its own line's cwd, the directory Claude Code ran
//     in when the line was written ("" when the line has none): each line
//     carries it, so a session that changed directory files each turn where
//     it happened, and a grown transcript never changes an earlier turn.
//   - A parent in another session (a resumed session's file copies history
//     with the old sessionId) or outside the file cannot be stored as a link,
//     so the turn becomes a root and the lost link is counted.
//   - Duplicated uuids keep the first line. An invalid last line is a
//     transcript still being written and is counted as truncated_last_line.
package claudecode
