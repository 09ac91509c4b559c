package distill

import "regexp"

// slot is a single-valued fact: a new value replaces the old one.
type slot struct {
	key string
	re  *regexp.Regexp
}

// personSlots are the slots of a person, first match wins.
var personSlots = []slot{
	{"home", regexp.MustCompile(`(?i)\b(?:lives? in|living in|moved (?:to|into|up to)|moving to|moved (?:up|back)|based in|bought a (?:flat|house|home) in|still in)\b`)},
	{"work", regexp.MustCompile(`(?i)\b(?:works? (?:as|at|for)|working (?:as|at|for)|job (?:as|at)|got (?:a|the) (?:\w+ ){0,3}job|new job|head of \w+ (?:at|job)|promoted to|hired as|started (?:a new job|at))\b`)},
}

// projectSlots are the slots of a project.
var projectSlots = []slot{
	{"test-command", regexp.MustCompile(`(?i)\b(?:run|runs|running) (?:the |all )?(?:\w+ )?tests? (?:with|using)|tests? (?:run|runs) with|(?:go test|make test|pnpm test|npm test|pytest|cargo test)\b`)},
	{"lint-command", regexp.MustCompile(`(?i)\b(?:make lint|golangci-lint|ruff check|eslint)\b`)},
	{"package-manager", regexp.MustCompile(`(?i)\b(?:we use|uses) (?:pnpm|npm|yarn|uv|pip|poetry|bun)\b`)},
	{"runtime-version", regexp.MustCompile(`(?i)\b(?:node \d+|python 3\.\d+|go 1\.\d+)\b`)},
	{"dev-port", regexp.MustCompile(`(?i)\b(?:dev server (?:is |runs )?on (?:port )?\d+|localhost:\d+)\b`)},
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
