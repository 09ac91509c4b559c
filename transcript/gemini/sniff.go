package gemini

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// sessionStart is how the CLI writes the start of a session, in either
// form: JSON.stringify keeps the key order of the record it builds
// ({sessionId, projectHash, startTime, …}), with or without the JSON
// form's two-space indent.
var sessionStart = regexp.MustCompile(`^\{\s*"sessionId"\s*:\s*"[^"\\]*"\s*,\s*"projectHash"\s*:\s*"`)

// Sniff reports whether first, a prefix of a file (it may end mid-line or
// mid-token), looks like a Gemini CLI session, JSONL or JSON. It looks at
// content only, never at a file name.
func Sniff(first []byte) bool {
	b := bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	b = bytes.TrimLeft(b, " \t\r\n")
	if sessionStart.Match(b) {
		return true
	}
	// The same metadata line with its keys in another order.
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return false
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(b[:i], &keys) != nil {
		return false
	}
	return isString(keys["sessionId"]) && isString(keys["projectHash"])
}
