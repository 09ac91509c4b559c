package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"scriptorium/engine"
)

func runSearch(inv *invocation) error {
	if len(inv.positional) == 0 {
		return usagef("usage: scriptorium search QUERY [--speaker S] [--path P] [--since D] [--until D] [--sort score|date] [--limit N] [--method bm25|embedding]")
	}
	q := engine.SearchQuery{Text: strings.Join(inv.positional, " "), Speaker: inv.flag("speaker"), Path: inv.flag("path"),
		Since: inv.flag("since"), Until: inv.flag("until"), Sort: inv.flag("sort"), Method: inv.flag("method")}
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
	return inv.withEngine(false, func(ctx context.Context, e *engine.Engine) error {
		res, err := e.Search(ctx, q)
		if err != nil {
			if ee := engine.AsError(err); ee.Code == engine.CodeInvalidArgument {
				return usagef("%s", ee.Message)
			}
			return err
		}
		return inv.emit(map[string]any{"results": res}, func(w io.Writer) {
			if len(res) == 0 {
				fmt.Fprintln(w, "no results")
			}
			for _, r := range res {
				who := ""
				if r.SpeakerLabel != nil && *r.SpeakerLabel != "" {
					who = "  " + *r.SpeakerLabel
					if !*r.SpeakerTrusted {
						who += " (untrusted hint)"
					}
				}
				fmt.Fprintf(w, "%-6s %6.2f  %s#%s  %s%s\n    %s\n", r.Kind, r.Score, r.Path, r.Anchor, r.Time, who, oneLine(r.Snippet, 110))
			}
		})
	})
}
