package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"golang.org/x/term"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/writer"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// verbs is the command table of SPEC §12.
func verbs() []*verb {
	return []*verb{
		{name: "tui", run: runTUI},
		{name: "demo", args: "[DIR]", help: "write a realistic demo state dir (default $TMPDIR/scriptorium-demo) and open the TUI on it",
			flags: []flagSpec{{"no-tui", false, "only write the demo"}}, run: runDemo, details: tuiDetails},
		{name: "init", args: "[DIR]", help: "create a workspace at DIR (default: the state dir of --state, $SCRIPTORIUM_STATE or ~/.openprogram)", run: runInit},
		{name: "status", help: "workspace id, revision, backend, writer, core report, index state", run: runStatus},
		{name: "verify", help: "validate the whole workspace (read-only)", run: runVerify},
		{name: "core", help: "render core.md now and report the budget", run: runCore},
		{name: "get", args: "REF", help: "a block (^id, path#^id) or a source (source-id, path#source-hash)", run: runGet},
		{name: "update", args: "FILE", help: "apply a transaction (JSON; - reads stdin)",
			flags: []flagSpec{{"as", true, "owner (default) or paired"},
				{"propose", false, "store the edits of topics/core.md as a proposal for the owner to review (how paired reaches the core)"}}, run: runUpdate},
		{name: "search", args: "QUERY", help: "search trusted blocks and sources (BM25, fused with embeddings when [embeddings] is configured)", flags: []flagSpec{
			{"speaker", true, "only sources by this speaker id, display name or label"},
			{"path", true, "only results under this path prefix"},
			{"since", true, "YYYY-MM-DD (inclusive) or RFC 3339"},
			{"until", true, "YYYY-MM-DD (inclusive, whole day) or RFC 3339"},
			{"sort", true, "score (default) or date (newest first)"},
			{"limit", true, "maximum results (default 10)"},
			{"method", true, "hybrid (the default with [embeddings]), bm25 (the default without) or embedding"},
			{"explain", false, "show which fields, terms and boosts gave each score"},
		}, run: runSearch},
		{name: "import", args: "PATH", help: "import turns into sessions.db: a JSONL, Claude Code or ChatGPT file, - (stdin) or a directory",
			flags: []flagSpec{{"format", true, "auto (default: by content), jsonl, claude-code or chatgpt"}}, run: runImport, details: importDetails},
		{name: "write", help: "run the writer (background: gives up after 1 s on a held lock)", flags: []flagSpec{
			{"force", false, "write until nothing is pending"}, {"session", true, "only this session"}}, run: runWrite},
		{name: "backfill", help: "distil trusted sources no topic cites", run: runBackfill},
		{name: "pending", help: "pending sources awaiting review, oldest first",
			flags: []flagSpec{{"rejected", false, "the rejected sources instead, with reason and rejected_at"}}, run: runPending},
		{name: "promote", args: "ID...", help: "promote pending or rejected sources (owner)",
			flags: []flagSpec{{"yes", false, "confirm without a terminal"}}, run: runPromote},
		{name: "reject", args: "ID...", help: "reject pending sources: they leave the review queue and stay untrusted (owner; promote reverses it)",
			flags: []flagSpec{{"reason", true, "why, recorded in the ledger"}, {"yes", false, "confirm without a terminal"}}, run: runReject},
		{name: "audit", help: "every install, promotion, rejection, sleep pass and declined proposal, newest first",
			flags: []flagSpec{{"source", true, "only this source's story (source-id)"},
				{"since", true, "YYYY-MM-DD (from that day) or RFC 3339"}}, run: runAudit},
		{name: "mcp", help: "MCP server on stdio: memory_search, memory_get, memory_status, memory_update (paired), memory_recall; resources memory://core, memory://topics/{path}",
			flags: []flagSpec{{"owner-tools", false, "give the client the owner's rights (delete, replace, move); without it the client is paired"}}, run: runMCP},
		{name: "serve", help: "local HTTP API under /api/memory/ (status, verify, get, search, pending, history, core, update) and MCP (streamable HTTP) at /mcp",
			flags: []flagSpec{{"addr", true, "listen address (default 127.0.0.1:8765)"},
				{"owner-tools", false, "give MCP clients the owner's rights; without it they are paired"}}, run: runServe},
		{name: "explain", args: "^ID", help: "why a block is in core.md or left out: position, tokens, running total, trust, sources", run: runExplain},
		{name: "reorder", args: "^ID", help: "move a block of topics/core.md (one transaction; core.md before and after)",
			flags: []flagSpec{{"top", false, "first after the pinned blocks"}, {"to", true, "to this 1-based position among the blocks"},
				{"pin", false, "into the pinned section, always rendered first"}, {"unpin", false, "out of the pinned section"}}, run: runReorder},
		{name: "history", help: "installed transactions and sleep passes, newest first", run: runHistory},
		{name: "sleep", help: "run a reorganiser pass now and print its report",
			flags: []flagSpec{{"model", true, "offline, NAME (configured provider) or PROVIDER:NAME"},
				{"propose", false, "store the pass as a proposal for the owner instead of installing it"}}, run: runSleep},
		{name: "forget", args: "--source ID… | --speaker SID | --thread PROVIDER/THREAD",
			help:  "remove records for good: archive text (tombstones stay), the blocks citing only them, their sessions.db turns and every copy (owner; a terminal or --yes)",
			flags: forgetFlags, run: runForget},
		{name: "revert", args: "REV", help: "install the inverse of transaction REV (owner; a terminal or --yes)",
			flags: []flagSpec{{"dry-run", false, "show the diff the revert would install, change nothing"},
				{"yes", false, "confirm without a terminal"}}, run: runRevert},
		{name: "proposals", help: "sleep passes and writer batches waiting for the owner, oldest first", run: runProposals},
		{name: "accept", args: "ID", help: "install a proposal (rebased when its base is stale) as a normal transaction",
			flags: []flagSpec{{"only", true, "only these files of the proposal (PATH…)"}}, run: runAccept},
		{name: "decline", args: "ID", help: "drop a proposal and record that in the events",
			flags: []flagSpec{{"only", true, "only these files of the proposal (PATH…)"}}, run: runDecline},
		{name: "daemon", help: "nightly sleep pass + idle-session watcher (until stopped)", run: runDaemon},
		{name: "hook", args: "claude-code | install claude-code", help: "the Claude Code hook (reads the event on stdin, always exits 0), or install it into Claude Code's settings",
			flags: []flagSpec{{"user", false, "install into ~/.claude/settings.json (default)"},
				{"project", false, "install into ./.claude/settings.json"},
				{"print", false, "print the settings JSON instead of writing it"}}, run: runHook, details: hookDetails},
	}
}

// stateDir resolves --state, $SCRIPTORIUM_STATE, --profile and the home dir.
func (inv *invocation) stateDir() (string, error) {
	home, _ := os.UserHomeDir()
	dir, err := workspace.ResolveStateDir(inv.flag("state"), inv.flag("profile"), os.Getenv, home)
	if err != nil {
		return "", usagef("%v", err)
	}
	// A memory is private: a state dir open to other users is tightened
	// the first time a verb reaches for it, and the owner is told.
	// Memory switched off means nothing on disk is touched (SPEC §11).
	if !inv.tightened {
		inv.tightened = true
		if cfg, err := engine.LoadConfig(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
			return dir, nil
		}
		notice, err := workspace.TightenStateDir(dir)
		if notice != "" {
			fmt.Fprintf(inv.stderr, "scriptorium: notice: %s\n", notice)
		}
		if err != nil {
			// The memory is still usable: say so, and go on.
			fmt.Fprintf(inv.stderr, "scriptorium: notice: could not make the state dir private: %v\n", err)
		}
	}
	return dir, nil
}

// confirm asks a yes/no question on stderr and reads the answer from
// stdin; anything but y or yes is no.
func (inv *invocation) confirm(question string) bool {
	fmt.Fprint(inv.stderr, question)
	var answer string
	fmt.Fscanln(inv.stdin, &answer)
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

// isTerminal reports whether stdin is an interactive terminal.
func (inv *invocation) isTerminal() bool {
	f, ok := inv.stdin.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// readingVerbs only read memory: on a state dir without a workspace they
// answer NOT_FOUND with the path they looked at instead of creating one
// (a mistyped --state must not leave an empty workspace behind). `init`,
// `demo` and the verbs that write create it.
var readingVerbs = map[string]bool{"status": true, "verify": true, "get": true, "search": true, "core": true,
	"pending": true, "history": true, "explain": true, "audit": true, "proposals": true, "mcp": true, "serve": true}

// requireWorkspace refuses a reading verb on a state dir without memory/.
// A config that switches memory off still answers MEMORY_DISABLED first.
func (inv *invocation) requireWorkspace(dir string) error {
	if inv.verb == nil || !readingVerbs[inv.verb.name] {
		return nil
	}
	if cfg, err := engine.LoadConfig(workspace.ConfigPath(dir)); err == nil && cfg.Disabled() {
		return engine.ErrDisabled
	}
	mem := workspace.MemoryDir(dir)
	if fi, err := os.Stat(mem); err == nil && fi.IsDir() {
		return nil
	}
	return engine.Errorf(engine.CodeNotFound, "no workspace at %s (check --state; `scriptorium init %s` creates one)", mem, dir)
}

// open opens the engine for this invocation. Interactive verbs wait for
// the write lock and say so on stderr.
func (inv *invocation) open(ctx context.Context, interactive bool, tier trust.Tier) (*engine.Engine, error) {
	dir, err := inv.stateDir()
	if err != nil {
		return nil, err
	}
	if err := inv.requireWorkspace(dir); err != nil {
		return nil, err
	}
	return engine.Open(ctx, engine.Options{
		StateDir: dir, Tier: tier, Interactive: interactive, Holder: "scriptorium " + inv.verb.name,
		OnLockWait: func() {
			who := "another writer"
			if h, ok := workspace.ReadLockHolder(workspace.MemoryDir(dir)); ok {
				who = h
			}
			fmt.Fprintf(inv.stderr, "scriptorium: waiting for the write lock held by %s… (ctrl+c cancels)\n", who)
		},
		CrashAt:   os.Getenv("SCRIPTORIUM_TEST_CRASH_AT"),
		Distiller: writer.Distiller{},
		LongLived: inv.longLived,
	})
}

// signalContext is cancelled on SIGINT/SIGTERM so a waiting verb stops cleanly.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// withEngine runs fn on an open owner engine.
func (inv *invocation) withEngine(interactive bool, fn func(ctx context.Context, e *engine.Engine) error) error {
	ctx, cancel := signalContext()
	defer cancel()
	e, err := inv.open(ctx, interactive, trust.Owner)
	if err != nil {
		return err
	}
	defer e.Close()
	return fn(ctx, e)
}

func runVerify(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		rep, err := e.Verify(ctx)
		if err != nil {
			return err
		}
		if err := inv.emit(rep, func(w io.Writer) {
			for _, v := range rep.Violations {
				fmt.Fprintln(w, v.String())
			}
			if rep.OK {
				fmt.Fprintln(w, "ok: the workspace is valid")
			} else {
				fmt.Fprintf(w, "%d violation(s)\n", len(rep.Violations))
			}
		}); err != nil {
			return err
		}
		if !rep.OK {
			return silentFailure{}
		}
		return nil
	})
}

// silentFailure exits 1 after the verb already printed its result (verify
// found violations: the JSON document is the report, not an error).
type silentFailure struct{}

func (silentFailure) Error() string { return "" }

func runGet(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		v, err := e.Get(ctx, inv.positional[0])
		if err != nil {
			return err
		}
		return inv.emit(v, func(w io.Writer) {
			switch x := v.(type) {
			case engine.BlockView:
				fmt.Fprintf(w, "%s#%s (%s)\n\n%s\n", x.Path, x.Anchor, x.Trust, x.Text)
				for _, f := range x.Footnotes {
					fmt.Fprintf(w, "\n[^%s] %s\n", f.Label, f.Time)
					for _, s := range f.Sources {
						fmt.Fprintf(w, "  %s  %s#%s\n", s.Ref, s.Path, s.Anchor)
					}
				}
			case engine.SourceView:
				fmt.Fprintf(w, "%s\n%s#%s\ntime: %s\nspeaker: %s\nrecord: %s\n\n%s\n",
					x.Ref, x.Path, x.Anchor, x.Time, sourceSpeaker(x), recordTrust(x.Trust), x.Content)
			}
		})
	})
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func runUpdate(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	tier := trust.Owner
	if as := inv.flag("as"); as != "" {
		t, err := trust.ParseTier(as)
		if err != nil || t == trust.Unpaired {
			return usagef("--as takes owner or paired, not %q", as)
		}
		tier = t
	}
	var data []byte
	var err error
	if inv.positional[0] == "-" {
		data, err = io.ReadAll(inv.stdin)
	} else {
		data, err = os.ReadFile(inv.positional[0])
	}
	if err != nil {
		return engine.Wrap(engine.CodeInvalidArgument, err, "read transaction")
	}
	tx, err := engine.ParseTransaction(data)
	if err != nil {
		return err
	}
	ctx, cancel := signalContext()
	defer cancel()
	e, err := inv.open(ctx, true, tier)
	if err != nil {
		return err
	}
	defer e.Close()
	if inv.bool("propose") {
		sub, err := proposals.Submit(ctx, e, tx)
		if err != nil {
			return err
		}
		return inv.emit(sub, func(w io.Writer) {
			if sub.Proposal == "" {
				fmt.Fprintln(w, "nothing would change: nothing proposed")
				return
			}
			fmt.Fprintf(w, "proposed %s for the owner's review: %s (see `proposals`, then `accept` or `decline`)\n", sub.Proposal, strings.Join(sub.Changed, ", "))
		})
	}
	res, err := e.Update(ctx, tx)
	if err != nil {
		return err
	}
	return inv.emit(res, func(w io.Writer) {
		if len(res.Changed) == 0 {
			fmt.Fprintf(w, "nothing changed (revision %d)\n", res.Revision)
			return
		}
		fmt.Fprintf(w, "installed revision %d: %s\n", res.Revision, strings.Join(res.Changed, ", "))
	})
}

func runCore(inv *invocation) error {
	if err := inv.wantArgs(0, 0); err != nil {
		return err
	}
	return inv.withEngine(true, func(ctx context.Context, e *engine.Engine) error {
		rep, err := e.Core(ctx)
		if err != nil {
			return err
		}
		return inv.emit(rep, func(w io.Writer) {
			fmt.Fprintf(w, "core.md: %d / %d tokens, %d included, %d excluded, %d pending\n",
				rep.Tokens, rep.Budget, len(rep.Included), len(rep.Excluded), len(rep.Pending))
			if len(rep.Excluded) > 0 {
				fmt.Fprintf(w, "excluded (over budget): %s\n", strings.Join(rep.Excluded, " "))
			}
			if len(rep.Pending) > 0 {
				fmt.Fprintf(w, "pending (not rendered): %s\n", strings.Join(rep.Pending, " "))
			}
		})
	})
}
