package distill

import (
	"strings"
	"unicode"
)

// What a coding session's owner states by shape rather than by word: a
// setting under a short label ("points per place: 1st 10, 2nd 7",
// "tie-break for teams: …"), a value corrected against the assistant's
// ("no, everything is eu-central-1"), and settings given as numbers
// ("retention on the DLQ 14 days, max receive count 5").

// codingLabelRe opens a sentence with a label of a few words and a colon;
// unlike labelOpenerRe it takes lower case and a ticket's key, as owners
// type to an assistant ("follow-up on PAY-298:", "not 120 for us:").
var codingLabelRe = lazyRegexp(`^[\p{L}\p{N}][\p{L}\p{N}' -]{1,30}:\s+\S`)

// labelledSetting reports whether a sentence opens with a short label (at
// most four words, not a request) and says at least four words after it.
func labelledSetting(text string) bool {
	if !codingLabelRe.MatchString(text) {
		return false
	}
	label, rest, _ := strings.Cut(text, ":")
	ws := strings.Fields(label)
	if len(ws) > 4 || taskVerbs[strings.ToLower(ws[0])] || strings.EqualFold(ws[0], "please") {
		return false
	}
	return len(strings.Fields(rest)) >= 4
}

// correctionToAssistant reports whether a sentence opens with "no," and
// then gives a value (a number or a piece of code): the owner corrects
// what the assistant was about to do ("no, everything is eu-central-1").
// "no, that's wrong" gives nothing to keep.
func correctionToAssistant(text string, code int) bool {
	lower := strings.ToLower(text)
	if !strings.HasPrefix(lower, "no, ") && !strings.HasPrefix(lower, "nope, ") {
		return false
	}
	return code > 0 || strings.IndexFunc(text, unicode.IsDigit) >= 0
}

// settingNumbers counts the separate numbers of a sentence: two or more,
// with no request opening it and no first person, are values the project
// keeps ("I moved 3 tanks to 2 racks" is what someone did).
func settingNumbers(text string) int {
	n, in := 0, false
	for _, r := range text {
		d := unicode.IsDigit(r)
		if d && !in {
			n++
		}
		in = d || in && (r == '.' || r == ',')
	}
	return n
}

// summaryLabelRe opens an assistant's report with its label: "Summary:",
// "Recap:", "Status:", German "Zusammenfassung:".
var summaryLabelRe = lazyRegexp(`(?i)^\W*(?:summary|recap|status|wrap-up|where we are|zusammenfassung|总结|小结)\W{0,3}[:：]`)

// interimOutcomes are the labelled reports before the session's last
// one: a session stopped (a meeting, the next day) and taken up again
// ends twice, and what the first part ended with ("Summary: … 7 tests
// pass; the PDF is left for next time") is an outcome too.
func (d *distiller) interimOutcomes() []Fact {
	last := d.outcomeTurn()
	var out []Fact
	for i := 0; i < last; i++ {
		t := d.s.Turns[i]
		if t.Role != RoleAssistant || !summaryLabelRe.MatchString(t.Content) || !outcomeRe.MatchString(t.Content) {
			continue
		}
		if f, ok := d.outcomeAt(i); ok {
			out = append(out, f)
		}
	}
	return out
}

// everyNeedsRe is a rule over every item of a kind: "every container needs
// requests and limits", "each migration must have a down step", "all
// handlers have to log the request id". A rule the project keeps, said
// without "always".
var everyNeedsRe = lazyRegexp(`(?i)^(?:also,? |and |oh,? )?(?:every|each|all)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:needs?|must|has to|have to|should|requires?)\b`)

// runFromRe is where a command is run from, a rule owners state in
// passing: "run hugo from the site root", "build the docs from the repo
// root", "run it from inside the app folder".
var runFromRe = lazyRegexp(`(?i)\b(?:run|build|start|call|invoke|deploy)\b(?:\s+\S+){0,4}?\s+from (?:the |inside |inside the |within )?(?:[\w./-]+ )?(?:root|folder|directory|dir|subfolder)\b`)

// dutyRe says who does a step of the work, a person or a role rather than
// the session: "prod is applied by Hendra the DBA", "releases are cut by
// the release manager", "Rina handles them" (with an object: "Kluska
// approves of the tool" is the cat). Case-sensitive: the name has its
// capital.
var dutyRe = lazyRegexp(`\b(?:is|are) (?:[a-z]+ed|done|run|cut|made) by (?:\p{Lu}\p{Ll}+|the (?:DBA|dba|ops|SRE|sre|release|platform|infra|on-call)\b)|^\p{Lu}\p{Ll}+ (?:handles|owns|reviews|approves|applies|deploys|merges) (?:them|it|those|these|the|all|every)\b`)
