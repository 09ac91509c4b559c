package tui

import (
	"context"
	"regexp"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/views"
)

var footnoteRef = regexp.MustCompile(`\[\^[^\]\s]+\]`)

// Recall is the fake's recall: its core's trusted blocks, then its search
// hits for the prompt, one cited line each, as engine/recall lays them out
// (the fake counts a token a word).
func (f *fakeBackend) Recall(ctx context.Context, prompt string) (views.Recalled, error) {
	if err := f.call("Recall"); err != nil {
		return views.Recalled{}, err
	}
	hits, err := f.Search(ctx, result.SearchQuery{Text: prompt})
	if err != nil {
		return views.Recalled{}, err
	}
	out := views.Recalled{Budget: 1000, Items: []views.RecalledItem{}}
	add := func(kind, ref, path, anchor, date, text string) {
		text = footnoteRef.ReplaceAllString(strings.ReplaceAll(text, "**", ""), "")
		line := "- [" + path + "#" + anchor + "] " + date + " " + strings.Join(strings.Fields(text), " ")
		n := len(strings.Fields(line))
		out.Items = append(out.Items, views.RecalledItem{Kind: kind, Ref: ref, Path: path, Anchor: anchor, Date: date, Tokens: n, Text: line})
		out.Tokens += n
		out.Text += line + "\n"
	}
	f.mu.Lock()
	for _, b := range f.topics["topics/core.md"].Blocks {
		if b.Trust == "trusted" {
			add("core", b.Ref, "topics/core.md", b.Anchor, "2026-08-10", b.Text)
		}
	}
	f.mu.Unlock()
	for _, h := range hits {
		if h.Path != "topics/core.md" {
			add(h.Kind, h.Ref, h.Path, h.Anchor, "2026-08-11", h.Snippet)
		}
	}
	if len(out.Items) > 0 {
		out.Text = "<memory-context>\n" + out.Text + "</memory-context>\n"
	}
	return out, nil
}
