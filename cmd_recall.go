package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/recall"
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
