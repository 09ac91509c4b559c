package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/recall"
	"scriptorium/hosts/local"
	"scriptorium/workspace"
)

// runRecall prints what an agent is given for a prompt: the prompt hook's
// and MCP memory_recall's context, from the same function (engine/recall).
func runRecall(inv *invocation) error {
	if len(inv.positional) == 0 {
		return usagef("usage: scriptorium recall PROMPT [--budget N] [--cwd DIR] [--json]")
	}
	req := recall.Request{Prompt: strings.Join(inv.positional, " "), Cwd: inv.flag("cwd")}
	if strings.TrimSpace(req.Prompt) == "" {
		return usagef("empty prompt")
	}
	if b := inv.flag("budget"); b != "" {
		n, err := strconv.Atoi(b)
		if err != nil || n < engine.MinRecallBudget {
			return usagef("--budget takes a whole number of tokens, at least %d, not %q", engine.MinRecallBudget, b)
		}
		req.Budget = n
	}
	// Like the hook, which is run in the agent's working directory.
	if !inv.set["cwd"] {
		if wd, err := os.Getwd(); err == nil {
			req.Cwd = wd
		}
	}
	// A long-lived process of this workspace (serve or the daemon, the
	// same binary) answers from memory; anything but a clean answer is
	// done here, as the hook does.
	if res, ok := inv.recallResident(req); ok {
		return inv.printRecall(res)
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := recall.Recall(ctx, e, req)
		if err != nil {
			return err
		}
		return inv.printRecall(res)
	})
}

// printRecall prints a recall: --json the whole result, else the fenced
// text exactly as an agent gets it.
func (inv *invocation) printRecall(res recall.Result) error {
	return inv.emit(res, func(w io.Writer) {
		if res.Text == "" {
			fmt.Fprintln(inv.stderr, "nothing to recall")
			return
		}
		fmt.Fprint(w, res.Text)
	})
}

// recallResident asks the workspace's long-lived process for the recall
// (hosts/local), where there is one and memory is not switched off.
func (inv *invocation) recallResident(req recall.Request) (recall.Result, bool) {
	dir, err := inv.stateDir()
	if err != nil || inv.requireWorkspace(dir) != nil {
		return recall.Result{}, false
	}
	if cfg, err := engine.LoadConfig(workspace.ConfigPath(dir)); err != nil || cfg.Disabled() {
		return recall.Result{}, false
	}
	return local.Recall(workspace.MemoryDir(dir), req, 2*time.Second)
}
