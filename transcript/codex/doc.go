// Package codex parses Codex CLI rollouts
// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<session id>.jsonl) into
// transcript turns: what the person typed and the agent's answers, chained
// in file order.
//
// It owns the mapping from Codex's rollout records to turns and skip
// reasons; it reads bytes only, line by line, and never touches the
// filesystem.
//
// # The format, as this package reads it
//
// Each line is a RolloutLine (codex-rs/protocol): {"timestamp", "type",
// "payload"} where type is
//   - session_meta: {id, timestamp, cwd, originator, cli_version, source,
//     forked_from_id?, git?, …}; the first one names the session;
//   - response_item: what the model saw or said, a ResponseItem: message
//     {role, content: [{type: input_text|output_text|input_image, …}]},
//     reasoning, function_call, function_call_output, custom_tool_call,
//     local_shell_call, web_search_call, compaction, …;
//   - event_msg: what the CLI showed, an EventMsg: user_message {message},
//     agent_message {message}, thread_name_updated {thread_name},
//     token_count, task_complete, turn_aborted, …;
//   - turn_context: {cwd, model, approval_policy, sandbox_policy, …};
//   - compacted: {message, replacement_history}.
//
// Rollouts written before Codex wrapped lines that way (mid-2025) open
// with a bare {id, timestamp, instructions, git} header, then hold bare
// response items and {"record_type":"state"} lines, with no time per item
// and no events.
//
// # Decisions
//   - One stream only. Turns come from response_item messages: a user item
//     is the person, an assistant item the agent. event_msg repeats them
//     (user_message, agent_message) and is not read for text.
//   - A user item is a prompt only when a user_message event of the rollout
//     has exactly its text: Codex emits that event for what the person
//     typed and for nothing it injects itself. Items Codex always injects
//     (<environment_context>, <user_instructions>, "# AGENTS.md
//     instructions", <user_shell_command>, <turn_aborted>,
//     <subagent_notification>, <skill>, <user_action>, <permissions
//     instructions>) are boilerplate at once; any other user item without
//     its event (the summary handed back after a compaction, a wrapper of a
//     newer version) is unconfirmed_user_item. Codex writes an item and then
//     its event, so an event drops the items waiting before the one it
//     matches; an event seen first waits for its item. The <image> tags
//     around a pasted image are not part of the text (the event has none);
//     the image is counted.
//   - A rollout with no user_message event at all (a legacy rollout, or one
//     of the Codex versions that did not keep that event) cannot confirm
//     anything: every user item that is not boilerplate is a prompt. A
//     legacy rollout's turns all have its header's time.
//   - developer and system messages, reasoning, tool calls and their
//     outputs are not turns; a compacted record is skipped whole, its
//     summary and replayed history come from turns already read.
//   - A turn's id is its line number: Codex only appends to a rollout, so
//     a grown rollout keeps every earlier id, and a resumed session appends
//     to the same file. The session is the first session_meta's id.
//   - A forked rollout (forked_from_id) copies its parent's records after
//     its own session_meta, behind the parent's session_meta, with no mark
//     where the copy ends: those turns are read as the fork's own (with the
//     time of the copy). Importing the parent too repeats them under the
//     parent's session.
//   - Project is the latest working directory before the turn: the
//     session_meta's cwd, then each turn_context's (Codex can change it
//     mid-session), or an <environment_context>'s <cwd> (legacy rollouts
//     name it nowhere else).
//   - Title is the latest thread name (thread_name_updated) in the file, on
//     every turn: a rollout can name its thread after its first turns, so a
//     grown rollout can give earlier turns a title; their ids and content
//     do not change.
//   - A sub-agent's rollout (source {"subagent": …}, or any source that is
//     not a plain string) is Synthetic: the main agent wrote its prompts.
//     All turns have tier owner and no speaker: it is the owner's CLI.
//   - A prompt's text pieces are joined with nothing between them, as Codex
//     flattens them for its user_message event; an answer's with a blank
//     line. Text is kept byte for byte.
//   - An invalid last line is a rollout still being written and is counted
//     as truncated_last_line; an invalid line before another is an error.
package codex
