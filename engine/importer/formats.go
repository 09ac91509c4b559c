package importer

import (
	"io"
	"strings"

	"scriptorium/transcript"
	"scriptorium/transcript/chatgpt"
	"scriptorium/transcript/claudecode"
)

// format is how the importer reads one input format.
type format struct {
	name transcript.Format
	// walked reports whether a directory walk for this format (--format
	// named it) takes the file called name.
	walked func(name string) bool
	// parse reads one file into turns; nil for our own JSONL, which the
	// store reads line by line itself.
	parse func(r io.Reader, name string) (transcript.Result, error)
	// lineOf finds the line of the file at path that holds the turn id,
	// for a turn the store refused; nil when the format has no lines that
	// name a turn.
	lineOf func(path, id string) int
}

// formats are the formats an import reads, in the order --format lists
// them. A new format is one more row.
var formats = []format{
	{name: transcript.FormatJSONL, walked: hasSuffix(".jsonl")},
	{name: transcript.FormatClaudeCode, walked: hasSuffix(".jsonl"), parse: claudecode.Parse, lineOf: lineOfUUID},
	{name: transcript.FormatChatGPT, walked: func(name string) bool { return name == "conversations.json" }, parse: chatgpt.Parse},
}

func hasSuffix(s string) func(string) bool {
	return func(name string) bool { return strings.HasSuffix(name, s) }
}

// formatOf returns the row of name.
func formatOf(name transcript.Format) (format, bool) {
	for _, f := range formats {
		if f.name == name {
			return f, true
		}
	}
	return format{}, false
}

// FormatNames lists the formats an import reads, as --format spells them.
func FormatNames() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = string(f.name)
	}
	return out
}

// KnownFormat reports whether an import reads format.
func KnownFormat(name transcript.Format) bool {
	_, ok := formatOf(name)
	return ok
}
