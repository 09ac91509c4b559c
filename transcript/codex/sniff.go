package codex

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// envelopeStart is how Codex serialises the start of every rollout line:
// RolloutLine's timestamp, then the record's type and payload (serde keeps
// the field order). It lets Sniff recognise a first line that the prefix cut
// short, as a session_meta line carrying the whole system prompt often is.
var envelopeStart = regexp.MustCompile(`^\{"timestamp":"[^"\\]*","type":"(session_meta|response_item|event_msg|turn_context|compacted)","payload":[{\[]`)

// legacyStart is the same for the header of a legacy rollout: its id (a
// UUID), timestamp and instructions, in that order.
var legacyStart = regexp.MustCompile(`^\{"id":"[0-9a-fA-F-]{36}","timestamp":"[^"\\]*","(instructions|git)":`)

// Sniff reports whether first, a prefix of a file (it may end mid-line),
// looks like a Codex rollout: its first line is a rollout record, or the
// header of a legacy rollout ({"id","timestamp"} with no type). It looks at
// content only, never at a file name.
func Sniff(first []byte) bool {
	b := bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	line, complete := b, false
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		line, complete = bytes.TrimRight(b[:i], "\r"), true
	}
	if envelopeStart.Match(line) || legacyStart.Match(line) {
		return true
	}
	if !complete {
		return false
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(line, &keys) != nil {
		return false
	}
	if typ, ok := keys["type"]; ok {
		// The same record written with its keys in another order.
		_, payload := keys["payload"]
		_, ts := keys["timestamp"]
		switch str(typ) {
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			return payload && ts
		}
		return false
	}
	// The legacy header: exactly these keys, id and timestamp strings.
	for k := range keys {
		switch k {
		case "id", "timestamp", "instructions", "git":
		default:
			return false
		}
	}
	return str(keys["id"]) != "" && str(keys["timestamp"]) != ""
}
