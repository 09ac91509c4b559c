package transcripttest

import (
	"strings"
	"testing"
	"unicode"

	"scriptorium/transcript"
)

// maxIDBytes bounds a session or message id: both end up in source-ids
// (<provider>/<session>/<id>) and in archive file names.
const maxIDBytes = 200

// CheckIDs verifies that every session and message id (and every Parent
// and ReplyTo, which name ids) is safe in a source-id and a file name:
// non-empty, at most 200 bytes, with no "/", "\", whitespace, control
// character, "--" or ">".
func CheckIDs(t *testing.T, res transcript.Result) {
	t.Helper()
	for i, tu := range res.Turns {
		for _, f := range []struct{ name, v string }{{"session", tu.Session}, {"id", tu.ID}, {"parent", tu.Parent}, {"reply_to", tu.ReplyTo}} {
			if f.v == "" && (f.name == "parent" || f.name == "reply_to") {
				continue
			}
			if problem := idProblem(f.v); problem != "" {
				t.Errorf("turn %d (%s/%s): %s %q %s", i, tu.Session, tu.ID, f.name, f.v, problem)
			}
		}
	}
}

func idProblem(id string) string {
	switch {
	case id == "":
		return "is empty"
	case len(id) > maxIDBytes:
		return "is longer than 200 bytes"
	case strings.Contains(id, "--"):
		return `contains "--"`
	case strings.ContainsAny(id, `/\>`):
		return `contains "/", "\" or ">"`
	case strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return "contains whitespace or a control character"
	}
	return ""
}
