package formats

import (
	"scriptorium/transcript"
	"scriptorium/transcript/codex"
	"scriptorium/transcript/discord"
	"scriptorium/transcript/gemini"
	"scriptorium/transcript/slack"
	"scriptorium/transcript/telegram"
	"scriptorium/transcript/whatsapp"
)

// sniffers are tried in order before transcript.Detect's own rules. Codex
// and Gemini come first: their JSONL lines carry "type" or "sessionId",
// which transcript.Detect would take for Claude Code.
var sniffers = []struct {
	format transcript.Format
	sniff  func([]byte) bool
}{
	{transcript.FormatCodex, codex.Sniff},
	{transcript.FormatGemini, gemini.Sniff},
	{transcript.FormatTelegram, telegram.Sniff},
	{transcript.FormatDiscord, discord.Sniff},
	{transcript.FormatSlack, slack.Sniff},
	{transcript.FormatWhatsApp, whatsapp.Sniff},
}

// Detect guesses the format of one file from its first bytes (any prefix,
// typically up to 64 KiB; a cut-off last line or token is allowed). It
// looks at content only, never at the file name, because exports get
// renamed. A Slack export is a folder (or zip) rather than a file: a lone
// day file is recognised as FormatSlack, and DetectFiles judges a folder.
func Detect(first []byte) transcript.Format {
	for _, s := range sniffers {
		if s.sniff(first) {
			return s.format
		}
	}
	return transcript.Detect(first)
}

// DetectFiles reports whether the files of a folder or zip (their names
// inside it, and a way to read the first bytes of one) make a Slack export,
// the only format that spans several files.
func DetectFiles(names []string, first func(name string) []byte) transcript.Format {
	if slack.SniffFiles(names, first) {
		return transcript.FormatSlack
	}
	return transcript.FormatUnknown
}

// All lists every format, in the order --format's help names them.
var All = []transcript.Format{
	transcript.FormatJSONL, transcript.FormatClaudeCode, transcript.FormatChatGPT,
	transcript.FormatCodex, transcript.FormatGemini, transcript.FormatTelegram,
	transcript.FormatWhatsApp, transcript.FormatSlack, transcript.FormatDiscord,
}
