package backend

import (
	"context"
	"strings"

	"scriptorium/engine/fence"
	"scriptorium/engine/result"
)

// The recall service (engine/recall) decides what a prompt is given; a
// Local backend's Recall is SPEC §10's top five.

// maxRecallQueryRunes bounds the part of a message searched for: a pasted
// log is still a message to recall for, but only its start is a query.
const maxRecallQueryRunes = 1000

// Recall implements Backend: the top five trusted hits for a user's
// message, fenced once in <memory-context> for a host to add to the turn.
// An empty or unsearchable message recalls nothing.
func (l *Local) Recall(ctx context.Context, message string) (string, error) {
	text := recallQuery(message)
	if text == "" {
		return "", nil
	}
	res, err := l.e.Search(ctx, result.SearchQuery{Text: text, Limit: 5})
	if err != nil {
		return "", err
	}
	if len(res) == 0 {
		return "", nil
	}
	var b strings.Builder
	for _, r := range res {
		b.WriteString(recallLine(r) + "\n")
	}
	return fence.Memory(b.String()), nil
}

// recallQuery turns a user's message into a search text: valid UTF-8, at
// most maxRecallQueryRunes runes, "" when there is nothing to search for.
func recallQuery(message string) string {
	if strings.TrimSpace(message) == "" {
		return ""
	}
	text := strings.ToValidUTF8(message, " ")
	if r := []rune(text); len(r) > maxRecallQueryRunes {
		text = string(r[:maxRecallQueryRunes])
	}
	return text
}

// recallLine is one hit as Recall shows it: the citation path#anchor, the
// speaker's label for a source, and the snippet on one line.
func recallLine(r result.SearchResult) string {
	who := ""
	if r.SpeakerLabel != nil && *r.SpeakerLabel != "" {
		who = " " + *r.SpeakerLabel + ":"
	}
	return "- [" + r.Path + "#" + r.Anchor + "]" + who + " " + strings.Join(strings.Fields(r.Snippet), " ")
}
