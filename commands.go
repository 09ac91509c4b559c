package main

// The command table: the one file that knows every verb. The runner
// (main.go, runner.go, help.go) parses a command line against it and runs
// the verb; each verb lives in a cmd_*.go file and uses only the helpers
// below the verbs (cli.go, open.go, print.go, …), never another verb file
// (architecture_test.go checks).

// senderFlag and chatFlag select all of one sender's pending sources for
// promote and reject.
var (
	senderFlag = flagSpec{"sender", true, "every pending source of this sender (speaker id, or the name when there is none), as pending shows them"}
	chatFlag   = flagSpec{"chat", true, "with --sender: only in this chat (PROVIDER/THREAD, as pending shows it)"}
)

// verbs is the command table of SPEC §12.
func verbs() []*verb {
	return []*verb{
		{name: "tui", run: runTUI},
		{name: "demo", args: "[DIR]", help: "write a realistic demo state dir (default $TMPDIR/scriptorium-demo) and open the TUI on it",
			flags: []flagSpec{{"no-tui", false, "only write the demo"}}, run: runDemo, details: tuiDetails},
		{name: "init", args: "[DIR]", help: "create a workspace at DIR (default: the state dir of --state, $SCRIPTORIUM_STATE or ~/.openprogram)", run: runInit},
		{name: "status", reads: true, help: "workspace id, revision, backend, writer, core report, index state", run: runStatus},
		{name: "verify", reads: true, help: "validate the whole workspace (read-only)", run: runVerify},
		{name: "core", reads: true, help: "render core.md now and report the budget", run: runCore},
		{name: "get", reads: true, args: "REF", help: "a block (^id, path#^id) or a source (source-id, path#source-hash)", run: runGet},
		{name: "update", args: "FILE", help: "apply a transaction (JSON; - reads stdin)",
			flags: []flagSpec{{"as", true, "owner (default) or paired"},
				{"propose", false, "store the edits of topics/core.md as a proposal for the owner to review (how paired reaches the core)"}}, run: runUpdate},
		{name: "search", reads: true, args: "QUERY", help: "search trusted blocks and sources (BM25, fused with embeddings when [embeddings] is configured)", flags: []flagSpec{
			{"speaker", true, "only sources by this speaker id, display name or label"},
			{"path", true, "only results under this path prefix"},
			{"since", true, "YYYY-MM-DD (inclusive) or RFC 3339"},
			{"until", true, "YYYY-MM-DD (inclusive, whole day) or RFC 3339"},
			{"sort", true, "score (default) or date (newest first)"},
			{"limit", true, "maximum results (default 10)"},
			{"method", true, "hybrid (the default with [embeddings]), bm25 (the default without) or embedding"},
			{"explain", false, "show which fields, terms and boosts gave each score"},
		}, run: runSearch},
		{name: "recall", reads: true, args: "PROMPT", help: "what an agent is given for a prompt: exactly the prompt hook's and MCP memory_recall's context", flags: []flagSpec{
			{"budget", true, "o200k_base tokens of the fenced context (default [recall] budget_tokens)"},
			{"cwd", true, "the agent's working directory, whose project's memory comes first (default: this directory)"},
		}, run: runRecall},
		{name: "import", args: "PATH [--owner SENDER]... [--paired SENDER]...",
			help: "import turns into sessions.db: a transcript or chat export (JSONL, Claude Code, ChatGPT, Codex, Gemini, Telegram, WhatsApp, Slack, Discord), a .zip, - (stdin) or a directory",
			flags: []flagSpec{{"format", true, "auto (default: by content), jsonl, claude-code, chatgpt, codex, gemini, telegram, whatsapp, slack or discord"},
				{"owner", true, "you in a chat export, as it names you (repeatable; stored in config.toml [trust.<provider>])"},
				{"paired", true, "a sender you trust in a chat export (repeatable; stored likewise)"}}, run: runImport, details: importDetails},
		{name: "write", help: "run the writer (background: gives up after 1 s on a held lock)", flags: []flagSpec{
			{"force", false, "write until nothing is pending"}, {"session", true, "only this session"},
			{"redistill", false, "propose distilled topics for the blocks the old writer wrote one turn each (the owner accepts it)"},
			{"thread", true, "with --redistill: only this thread (PROVIDER/THREAD)"}}, run: runWrite},
		{name: "backfill", help: "distil trusted sources no topic cites", run: runBackfill},
		{name: "pending", reads: true, help: "pending sources awaiting review, oldest first",
			flags: []flagSpec{{"rejected", false, "the rejected sources instead, with reason and rejected_at"}}, run: runPending},
		{name: "promote", args: "ID... | --sender SID [--chat PROVIDER/THREAD]", help: "promote pending or rejected sources, or all of one sender's pending ones (owner)",
			flags: []flagSpec{{"yes", false, "confirm without a terminal"}, senderFlag, chatFlag}, run: runPromote},
		{name: "reject", args: "ID... | --sender SID [--chat PROVIDER/THREAD]", help: "reject pending sources, or all of one sender's: they leave the review queue and stay untrusted (owner; promote reverses it)",
			flags: []flagSpec{{"reason", true, "why, recorded in the ledger"}, {"yes", false, "confirm without a terminal"}, senderFlag, chatFlag}, run: runReject},
		{name: "audit", reads: true, help: "every install, promotion, rejection, sleep pass and declined proposal, newest first",
			flags: []flagSpec{{"source", true, "only this source's story (source-id)"},
				{"since", true, "YYYY-MM-DD (from that day) or RFC 3339"}}, run: runAudit},
		{name: "mcp", reads: true, help: "MCP server on stdio: memory_search, memory_get, memory_status, memory_update (paired), memory_recall; resources memory://core, memory://topics/{path}",
			flags: []flagSpec{{"owner-tools", false, "give the client the owner's rights (delete, replace, move); without it the client is paired"}}, run: runMCP},
		{name: "serve", reads: true, help: "local HTTP API under /api/memory/ (status, verify, get, search, pending, history, core, update) and MCP (streamable HTTP) at /mcp",
			flags: []flagSpec{{"addr", true, "listen address (default 127.0.0.1:8765)"},
				{"owner-tools", false, "give MCP clients the owner's rights; without it they are paired"}}, run: runServe},
		{name: "explain", reads: true, args: "^ID", help: "why a block is in core.md or left out: position, tokens, running total, trust, sources", run: runExplain},
		{name: "reorder", args: "^ID", help: "move a block of topics/core.md (one transaction; core.md before and after)",
			flags: []flagSpec{{"top", false, "first after the pinned blocks"}, {"to", true, "to this 1-based position among the blocks"},
				{"pin", false, "into the pinned section, always rendered first"}, {"unpin", false, "out of the pinned section"}}, run: runReorder},
		editVerb(),
		deleteVerb(),
		moveVerb(),
		ownerVerb(),
		{name: "history", reads: true, help: "installed transactions and sleep passes, newest first", run: runHistory},
		{name: "sleep", help: "run a reorganiser pass now and print its report",
			flags: []flagSpec{{"model", true, "offline, NAME (configured provider) or PROVIDER:NAME"},
				{"propose", false, "store the pass as a proposal for the owner instead of installing it"}}, run: runSleep},
		{name: "forget", args: "--source ID… | --speaker SID | --thread PROVIDER/THREAD",
			help:  "remove records for good: archive text (tombstones stay), the blocks citing only them, their sessions.db turns and every copy (owner; a terminal or --yes)",
			flags: forgetFlags, run: runForget},
		{name: "revert", args: "REV", help: "install the inverse of transaction REV (owner; a terminal or --yes)",
			flags: []flagSpec{{"dry-run", false, "show the diff the revert would install, change nothing"},
				{"yes", false, "confirm without a terminal"}}, run: runRevert},
		{name: "proposals", reads: true, help: "sleep passes and writer batches waiting for the owner, oldest first", run: runProposals},
		{name: "accept", args: "ID", help: "install a proposal (rebased when its base is stale) as a normal transaction",
			flags: []flagSpec{{"only", true, "only these files of the proposal (PATH…)"}}, run: runAccept},
		{name: "decline", args: "ID", help: "drop a proposal and record that in the events",
			flags: []flagSpec{{"only", true, "only these files of the proposal (PATH…)"}}, run: runDecline},
		{name: "daemon", help: "nightly sleep pass + idle-session watcher + the folders of [import] watch (until stopped)", run: runDaemon},
		{name: "hook", neverFails: []string{"claude-code", "codex"}, args: "claude-code | codex JSON | install claude-code | install codex",
			help: "the Claude Code hook (reads the event on stdin) or Codex CLI's notify program (the notification as its last argument); both always exit 0. Or install either",
			flags: []flagSpec{{"user", false, "install into ~/.claude/settings.json (default)"},
				{"project", false, "install into ./.claude/settings.json"},
				{"print", false, "print the settings JSON (or Codex's notify line) instead of writing it"},
				{"http", false, "Claude Code: the prompt hook posts to serve (--http URL or --http=URL; default http://127.0.0.1:8765/hooks/claude-code)"}}, run: runHook, details: hookDetails},
	}
}
