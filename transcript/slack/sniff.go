package slack

import (
	"bytes"
	"encoding/json"
)

// Sniff reports whether first, a prefix of one file (up to 64 KiB, possibly
// cut mid-token), is a Slack export's day file: a JSON array whose first
// element is an object with "type":"message" and a "ts" that is a Slack
// timestamp. It looks at content only. No other format the importer reads
// is an array of such objects: ChatGPT's conversations.json is an array of
// conversations with "mapping", the JSONL formats are lines of objects, and
// Telegram, Discord and Gemini exports are single objects.
func Sniff(first []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	typ, ts := false, false
	for !(typ && ts) {
		tok, err := dec.Token()
		if err != nil {
			return false // the prefix ended before both keys showed up
		}
		key, ok := tok.(string)
		if !ok {
			return false // the end of the first object
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false
		}
		var s string
		switch key {
		case "type":
			typ = json.Unmarshal(v, &s) == nil && s == "message"
			if !typ {
				return false
			}
		case "ts":
			if json.Unmarshal(v, &s) != nil {
				return false
			}
			if _, err := parseTS(s); err != nil {
				return false
			}
			ts = true
		}
	}
	return true
}

// SniffFiles reports whether a set of files is a Slack export, by content:
// some file is a day file (Sniff). names lists the files; first returns a
// prefix of one. Which files are the export's root files is decided by
// ParseFiles, which says clearly when channels.json and its siblings are
// missing, so a folder of day files alone is still recognised as Slack.
func SniffFiles(names []string, first func(name string) []byte) bool {
	for _, n := range names {
		if Sniff(first(n)) {
			return true
		}
	}
	return false
}
