// Package hook is the host for agent hooks: the command Claude Code runs on
// its hook events (`scriptorium hook claude-code`), Codex CLI's notify
// program (`scriptorium hook codex`, which Codex runs with the notification
// JSON as its last argument when a turn ends), and the installers that add
// them to Claude Code's settings.json and Codex's config.toml (`hook
// install claude-code`, `hook install codex`).
//
// It owns the hook's input and output formats, its time bounds, the
// best-effort hook status file and the settings merge. Memory work is the
// recall service's (engine/recall) and the writer's; transcripts are parsed by
// transcript/claudecode and stored by engine/sessions.
//
// Decisions:
//   - A hook never breaks the user's session: every failure (no input, a
//     held lock, a broken config.toml, a panic) ends the run with exit 0
//     and no output, and is recorded in <workspace>/.scriptorium/runtime/
//     hook-status.json, which `status` shows.
//   - No workspace, no side effects: when the state dir holds neither
//     memory/ nor sessions.db the hook does nothing and creates nothing;
//     memory.backend = "none" is the off switch and is silent too.
//   - Stop, PreCompact and SessionEnd import what the transcript gained
//     since the offset sessions.db stores for it (at most 8 MiB an event;
//     the daemon imports what the events left) and run the writer's normal
//     threshold pass, the whole process within 1.2 s counted from its
//     start (budget.go), well inside Claude Code's 1.5 s SessionEnd limit;
//     forced writes of idle sessions are the daemon's job.
//   - Codex's agent-turn-complete finds the session's rollout by its thread
//     id (sessions/YYYY/MM/DD/rollout-*-<id>.jsonl under $CODEX_HOME or
//     ~/.codex, newest day first, then archived_sessions/), imports it and
//     runs the threshold pass, within 20 s: Codex does not wait for its
//     notify program, so the bound only keeps slow runs from piling up.
//     Codex runs one notify program, so the installer never replaces
//     another one; it says what to chain instead.
//   - UserPromptSubmit answers with recall.Recall, the same budgeted,
//     fenced, trusted-only context MCP's memory_recall returns.
package hook
