package distill

import (
	"strings"
	"testing"
	"time"
)

// An owner's project rules in the shapes a coding session states them:
// a limit ("allows 100 calls a minute per token"), a routing rule ("every
// call goes through …"), commit message conventions, an environment
// variable, sorting, and an instruction in
// a later clause after a quoted literal. Written here, not taken from the
// labelled set.
func TestProjectFact_StatedRules(t *testing.T) {
	for _, tc := range []struct{ said, want string }{
		{"heads up, the billing API allows 100 calls a minute per token.", "allows 100 calls a minute per token"},
		{"there's a retry wrapper in retry.go, every call goes through it", "every call goes through it"},
		{"commit messages start with the package, like \"store: batch writes\".", "ommit messages start with the package"},
		{"and the editor is helix, EDITOR=hx", "EDITOR=hx"},
		{"keep the CHANGELOG entries sorted alphabetically, one entry per line.", "sorted alphabetically"},
		{"the invoices say \"montant dû\", keep the French wording", "keep the French wording"},
	} {
		if got := ownerRule("paybridge", tc.said); !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%q: kept %q, want a fact with %q", tc.said, got, tc.want)
		}
	}
}

// Round five's shapes of a project rule: a bare prohibition ("no
// malloc."), a rule about "this firmware", a limit with its unit, a
// recipient restricted ("only, not …"), commit subjects "like the
// others", a format in a language, and a data-cleaning decision in a
// later clause; and answers that make no rule. Written here, not taken
// from the labelled set.
func TestProjectFact_RoundFiveRules(t *testing.T) {
	distil := func(said string) []string { return ownerRule("tidegauge", said) }
	for _, tc := range []struct{ said, want string }{
		{"no exceptions.", "No exceptions."},
		{"no threads in this daemon. everything runs on the event loop", "No threads in this daemon."},
		{"the logger runs off a coin cell. peak current has to stay under 15 mA", "has to stay under 15 mA"},
		{"the nightly email goes to the ops list only, not the whole team", "goes to the ops list only, not the whole team"},
		{"changelog entries in English, like the others", "entries in English, like the others"},
		{"the negative rows are sensor resets, drop them.", "sensor resets, drop them"},
	} {
		if got := distil(tc.said); !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%q: kept %q, want a fact with %q", tc.said, got, tc.want)
		}
	}
	for _, said := range []string{"no thanks.", "no, the other one.", "no idea.", "no worries", "no no.", "no no, the other one"} {
		if got := distil(said); len(got) > 0 {
			t.Errorf("%q: kept %q, want nothing", said, got)
		}
	}
}

// ownerRule is what the distiller keeps, session blocks aside, of one
// owner prompt in a coding session of project (answered "Noted.").
func ownerRule(project, said string) []string {
	at := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	s := chat(at, "claude-code", "rules-"+project, "", "owner: "+said, "assistant: Noted.")
	s.Project = "/home/kim/src/" + project
	var got []string
	for _, f := range Distil(s) {
		if f.Kind != KindSummary {
			got = append(got, f.Text)
		}
	}
	return got
}
