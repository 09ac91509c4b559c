// Package hook is the host for agent hooks: the command Claude Code runs on
// its hook events (`scriptorium hook claude-code`) and the installer that
// adds that command to Claude Code's settings (`hook install claude-code`).
//
// It owns the hook's input and output formats, its time bounds, the
// best-effort hook status file and the settings merge. Memory work is the
// engine's (RecallBudget) and the writer's; transcripts are parsed by
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
//   - Stop, PreCompact and SessionEnd import the transcript (re-import is
//     idempotent, so a grown transcript adds only its new lines) and run
//     the writer's normal threshold pass, bounded by a deadline well inside
//     Claude Code's 1.5 s SessionEnd limit; forced writes of idle sessions
//     are the daemon's job.
//   - UserPromptSubmit answers with engine.RecallBudget, the same budgeted,
//     fenced, trusted-only context MCP's memory_recall returns.
package hook
