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
	at := time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ said, want string }{
		{"heads up, the billing API allows 100 calls a minute per token.", "allows 100 calls a minute per token"},
		{"there's a retry wrapper in retry.go, every call goes through it", "every call goes through it"},
		{"commit messages start with the package, like \"store: batch writes\".", "ommit messages start with the package"},
		{"and the editor is helix, EDITOR=hx", "EDITOR=hx"},
		{"keep the CHANGELOG entries sorted alphabetically, one entry per line.", "sorted alphabetically"},
		{"the invoices say \"montant dû\", keep the French wording", "keep the French wording"},
	} {
		s := chat(at, "claude-code", "rules", "", "owner: "+tc.said, "assistant: Noted.")
		s.Project = "/home/kim/src/paybridge"
		var got []string
		for _, f := range Distil(s) {
			if f.Kind != KindSummary {
				got = append(got, f.Text)
			}
		}
		if !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%q: kept %q, want a fact with %q", tc.said, got, tc.want)
		}
	}
}
