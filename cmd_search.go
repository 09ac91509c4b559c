package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/result"
	"scriptorium/engine/search"
	"scriptorium/errcode"
	"scriptorium/hosts/local"
	"scriptorium/termsafe"
	"scriptorium/workspace"
)

func runSearch(inv *invocation) error {
	if len(inv.positional) == 0 {
		return usagef("usage: scriptorium search QUERY [--speaker S] [--path P] [--since D] [--until D] [--sort score|date] [--limit N] [--method hybrid|bm25|embedding] [--explain]")
	}
	q := result.SearchQuery{Text: strings.Join(inv.positional, " "), Speaker: inv.flag("speaker"), Path: inv.flag("path"),
		Since: inv.flag("since"), Until: inv.flag("until"), Sort: inv.flag("sort"), Method: inv.flag("method"),
		Explain: inv.bool("explain")}
	if strings.TrimSpace(q.Text) == "" {
		return usagef("empty query")
	}
	if l := inv.flag("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 1 {
			return usagef("--limit takes a positive whole number, not %q", l)
		}
		q.Limit = n
	}
	// A long-lived process of this workspace (serve or the daemon, the same binary)
	// answers from memory; anything but a clean answer is done here.
	if rep, ok := inv.searchResident(q); ok {
		return inv.printSearch(rep)
	}
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		if f, ok := termsafe.Unwrap(inv.stderr).(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			search.SetEmbedProgress(e, func(done, total int) {
				fmt.Fprintf(f, "\rembedding %d/%d documents…", done, total)
				if done == total {
					fmt.Fprintln(f)
				}
			})
		}
		rep, err := e.SearchReport(ctx, q)
		if err != nil {
			if ee := errcode.As(err); ee.Code == errcode.InvalidArgument {
				return usagef("%s", ee.Message)
			}
			return err
		}
		return inv.printSearch(rep)
	})
}

// searchResident asks the workspace's long-lived process for the search
// (hosts/local), where there is one and memory is not switched off.
func (inv *invocation) searchResident(q result.SearchQuery) (engine.SearchReport, bool) {
	dir, err := inv.stateDir()
	if err != nil || inv.requireWorkspace(dir) != nil {
		return engine.SearchReport{}, false
	}
	if cfg, err := config.Load(workspace.ConfigPath(dir)); err != nil || cfg.Disabled() {
		return engine.SearchReport{}, false
	}
	return local.Search(workspace.MemoryDir(dir), q, 2*time.Second)
}

// printSearch prints a search report as the verb does.
func (inv *invocation) printSearch(rep engine.SearchReport) error {
	res := rep.Results
	doc := map[string]any{"results": res, "method": rep.Method}
	if rep.Fallback != "" {
		doc["fallback"] = rep.Fallback
		if !inv.json {
			fmt.Fprintf(inv.stderr, "scriptorium: %s; these are BM25 results\n", rep.Fallback)
		}
	}
	return inv.emit(doc, func(w io.Writer) {
		if len(res) == 0 {
			fmt.Fprintln(w, "no results")
		}
		for _, r := range res {
			who := ""
			if r.SpeakerLabel != nil && *r.SpeakerLabel != "" {
				who = "  " + *r.SpeakerLabel
				if r.SpeakerTrusted == nil || !*r.SpeakerTrusted {
					who += " (untrusted hint)"
				}
			}
			fmt.Fprintf(w, "%-6s %6.2f  %s#%s  %s%s\n    %s\n", r.Kind, r.Score, r.Path, r.Anchor, r.Time, who, oneLine(r.Snippet, 110))
			if r.Explanation != nil {
				fmt.Fprintf(w, "    why: %s\n", r.Explanation)
			}
		}
	})
}
