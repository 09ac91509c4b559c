package transcript

import (
	"bytes"
	"encoding/json"
)

// Format names an input format for --format.
type Format string

// The formats Detect can recognise. FormatUnknown is the zero value.
const (
	FormatUnknown    Format = ""
	FormatJSONL      Format = "jsonl"       // our own SPEC §7 turn lines
	FormatClaudeCode Format = "claude-code" // ~/.claude/projects/<project>/<session>.jsonl
	FormatChatGPT    Format = "chatgpt"     // conversations.json of a ChatGPT data export
	FormatTelegram   Format = "telegram"    // Telegram Desktop export, result.json
	FormatSlack      Format = "slack"       // Slack export folder or zip
	FormatWhatsApp   Format = "whatsapp"    // WhatsApp "Export chat" _chat.txt
	FormatDiscord    Format = "discord"     // DiscordChatExporter JSON
	FormatCodex      Format = "codex"       // Codex CLI rollout-*.jsonl
	FormatGemini     Format = "gemini"      // Gemini CLI session (JSON or JSONL)
)

// detectLines bounds how many JSONL objects Detect looks at: Claude Code files
// often open with a summary or snapshot line, so one is not enough, but the
// answer must not depend on how much of a big file the caller read.
const detectLines = 8

// Detect guesses the format from the first bytes of a file (any prefix the
// caller has read, typically a few KiB; a cut-off last line is ignored). It
// looks at content only, never at the file name, because exports get renamed.
func Detect(first []byte) Format {
	b := bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return FormatUnknown
	}
	if b[0] == '[' {
		// A ChatGPT export is one array of conversations, each with a
		// "mapping" near its start. The prefix may end inside the first
		// conversation, so this is a key search rather than a decode.
		if bytes.Contains(b, []byte(`"mapping"`)) {
			return FormatChatGPT
		}
		return FormatUnknown
	}
	seen, sawType := 0, false
	for len(b) > 0 && seen < detectLines {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var keys map[string]json.RawMessage
		if json.Unmarshal(line, &keys) != nil {
			if b == nil {
				break // the prefix cut this line short
			}
			return FormatUnknown
		}
		seen++
		_, session := keys["session"]
		_, content := keys["content"]
		_, uuid := keys["uuid"]
		_, sessionID := keys["sessionId"]
		_, typ := keys["type"]
		switch {
		case uuid || sessionID:
			return FormatClaudeCode
		case session && content:
			return FormatJSONL
		case typ:
			// A Claude Code summary or snapshot line carries "type" but
			// neither uuid nor sessionId: look further for a message line,
			// and settle for claude-code if none shows up.
			sawType = true
		}
	}
	if sawType {
		return FormatClaudeCode
	}
	return FormatUnknown
}
