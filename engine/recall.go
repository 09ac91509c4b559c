package engine

import "strings"

// The recall service (engine/recall) decides what a prompt is given; the
// core keeps only what its own Recall (SPEC §10's top five) needs.

// maxRecallQueryRunes bounds the part of a message searched for: a pasted
// log is still a message to recall for, but only its start is a query.
const maxRecallQueryRunes = 1000

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
func recallLine(r SearchResult) string {
	who := ""
	if r.SpeakerLabel != nil && *r.SpeakerLabel != "" {
		who = " " + *r.SpeakerLabel + ":"
	}
	return "- [" + r.Path + "#" + r.Anchor + "]" + who + " " + strings.Join(strings.Fields(r.Snippet), " ")
}
