package distill

import (
	"strings"
)

// slot is a single-valued fact: a new value replaces the old one.
type slot struct {
	key string
	re  *lazyRE
}

// personSlots are the slots of a person, first match wins.
var personSlots = []slot{
	{"home", lazyRegexp(`(?i)\b(?:lives? in|living in|moved (?:to|into|up to)|moving to|moved (?:up|back)|based in|bought a (?:flat|house|home) in|still in)\b`)},
	{"work", lazyRegexp(`(?i)\b(?:works? (?:as|at)|working (?:as|at)|job (?:as|at)|got (?:a|the) (?:\w+ ){0,3}job|new job (?:as|at)|head of \w+ (?:at|job)|promoted to|hired as|started (?:a new job|at))\b`)},
}

// projectSlots are the slots of a project.
var projectSlots = []slot{
	{"test-command", lazyRegexp(`(?i)\b(?:run|runs|running) (?:the |all )?(?:\w+ )?tests? (?:with|using)|tests? (?:run|runs) with|(?:go test|make test|pnpm test|npm test|pytest|cargo test)\b`)},
	{"lint-command", lazyRegexp(`(?i)\b(?:make lint|golangci-lint|ruff check|eslint)\b`)},
	{"package-manager", lazyRegexp(`(?i)\b(?:we use|uses) (?:pnpm|npm|yarn|uv|pip|poetry|bun)\b`)},
	{"runtime-version", lazyRegexp(`(?i)\b(?:node \d+|python 3\.\d+|go 1\.\d+)\b`)},
	{"dev-port", lazyRegexp(`(?i)\b(?:dev server (?:is |runs )?on (?:port )?\d+|localhost:\d+)\b`)},
}

// Slot is the block's slot: Key when set, else what the distiller would
// give a fact with the block's text, topic and heading (BlockSlot), and
// for a thread's summary the session its citations come from.
func (b Block) Slot() string {
	if b.Key != "" {
		return b.Key
	}
	if strings.HasPrefix(b.Path, "topics/threads/") {
		if len(b.Cites) == 0 {
			return ""
		}
		return summaryKeyOf(b.Cites[0])
	}
	return BlockSlot(b.Text, b.Path, b.Heading)
}

// BlockSlot is the slot of a fact or block from its text, topic file and
// heading: a project's slots in topics/projects/, a person's elsewhere,
// none for an outcome or a thread's summary (whose slot is its session).
func BlockSlot(text, path, heading string) string {
	switch {
	case heading == ThemeOutcomes || heading == ThemeSessions || strings.HasPrefix(path, "topics/threads/"):
		return ""
	case strings.HasPrefix(path, "topics/projects/"):
		return SlotOf(text, true)
	}
	return SlotOf(text, false)
}

// summaryKeyOf is the slot of a session's summary, from one of the refs
// it cites ("<provider>/<thread>/<id>"): one summary per session, so a
// session written again replaces its own and never another's.
func summaryKeyOf(ref string) string {
	if i := strings.LastIndexByte(ref, '/'); i > 0 {
		ref = ref[:i]
	}
	return "summary:" + ref
}

// SlotOf is the slot a fact's text fills ("work", "home" for a person;
// "test-command", "lint-command", "package-manager", "runtime-version",
// "dev-port" for a project), or "" when it fills none. It reads only the
// text, so the slot of a block on disk is recovered the same way.
func SlotOf(text string, project bool) string {
	slots := personSlots
	if project {
		slots = projectSlots
	}
	for _, s := range slots {
		if s.re.MatchString(text) {
			return s.key
		}
	}
	return ""
}
