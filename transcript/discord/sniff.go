package discord

import (
	"bytes"
	"encoding/json"
)

// Sniff reports whether first, a prefix of a file (up to 64 KiB, possibly
// cut mid-token), is a DiscordChatExporter JSON export: one JSON object
// whose top level has a "guild" object and a "channel" object (the exporter
// writes them first, before "messages"; a re-encoding that sorts keys puts
// "channel" first and "guild" after "dateRange" and "exportedAt", still
// near the start). It looks at content only. Telegram's result.json, Gemini
// sessions and the JSONL formats have no "guild"; Slack day files and
// ChatGPT exports are arrays.
func Sniff(first []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	guild, channel := false, false
	for !(guild && channel) {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, ok := tok.(string)
		if !ok {
			return false // the end of the object
		}
		if key == "messages" {
			return false // messages before the guild and channel: not the exporter's layout
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		isObject := len(v) > 0 && v[0] == '{'
		switch key {
		case "guild":
			guild = isObject
		case "channel":
			channel = isObject
		}
	}
	return true
}
