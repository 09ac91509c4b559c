package distill

import (
	"strings"
	"testing"
	"time"
)

// FuzzDistil: whatever the turns say, every fact cites a turn of the
// session, invents nothing and speaks in the third person, and the
// summary is short.
func FuzzDistil(f *testing.F) {
	for _, seed := range []string{
		"I'm swamped with work and the kids. Theo is 7 now 😅",
		"From now on always give quantities in grams, not cups.",
		"we're moving to York next month! Dev got a transfer",
		"Run the tests with `go test -race ./...` in this repo.\n```\n$ go test\nok\n```",
		"我九月要搬回上海了，公司把我调回总部。",
		"Done. The flaky test was a data race; I now take the mutex. All tests pass; committed as 4e1d2a7.",
		"- a list\n- of **things**\n| a | table |",
		"", "?", "I", "my my my", "\"I\" said \"me\"", "e.g. Dr. K. ... ./ ~/ `",
		"Did you know I quit sugar in January?", "Guess who's speaking at GopherCon?", "Baba had a stent fitted last week",
		"My husband and I are moving to Denver", "Tidebreaker.", "Nope, so The Lowtides need a stand-in on the 22nd",
		"we took the kids camping last weekend, our new van is great", "Been busy with the new baby!!!",
	} {
		f.Add(seed, false, false)
		f.Add(seed, true, true)
	}
	at := time.Date(2025, 6, 14, 17, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, content string, named, coding bool) {
		s := Session{Provider: "p", ID: "s", Title: "t", Turns: []Turn{
			{Ref: "p/s/1", Time: at, Role: RoleUser, Owner: true, Content: content},
			{Ref: "p/s/2", Time: at.Add(time.Minute), Role: RoleAssistant, Content: content},
			{Ref: "p/s/3", Time: at.Add(2 * time.Minute), Role: RoleUser, Content: content + " I adopted a cat."},
			{Ref: "p/s/4", Time: at.Add(3 * time.Minute), Role: RoleUser, Content: "What's it called? " + content + "?"},
			{Ref: "p/s/5", Time: at.Add(4 * time.Minute), Role: RoleUser, Content: content},
		}}
		if named {
			// Two friends, so the last turn answers the question before it.
			s.Turns[0].Speaker, s.Turns[2].Speaker = "Nadia Haddad", "Mel"
			s.Turns[3].Speaker, s.Turns[4].Speaker = "Nadia Haddad", "Mel"
		}
		if coding {
			s.Project = "/src/ledgerline"
		}
		facts, sum := DistilAll(s)
		byRef := map[string]Turn{}
		for _, tt := range s.Turns {
			byRef[tt.Ref] = tt
		}
		for _, fc := range append(facts, sum) {
			if fc.Text == "" && fc.Kind == KindSummary {
				continue
			}
			if len(fc.Cites) == 0 {
				t.Fatalf("%q cites nothing", fc.Text)
			}
			var ev []Evidence
			for _, r := range fc.Cites {
				tt, ok := byRef[r]
				if !ok {
					t.Fatalf("%q cites %s, not a turn", fc.Text, r)
				}
				ev = append(ev, Evidence{Text: tt.Content, Time: tt.Time})
			}
			names := []string{fc.Subject, DefaultOwnerName, "the assistant", "Nadia Haddad", "Mel", "ledgerline"}
			if miss := Unsupported(fc.Text, ev, names...); len(miss) > 0 {
				t.Fatalf("%q invents %q", fc.Text, miss)
			}
			if fp := FirstPersonWords(fc.Text); len(fp) > 0 {
				t.Fatalf("%q has first person %q", fc.Text, fp)
			}
		}
		if n := len(strings.Fields(sum.Text)); n > summaryWords+1 {
			t.Fatalf("summary of %d words", n)
		}
	})
}

// FuzzRewrite: a rewrite never leaves a first-person word outside quotes.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{"I'm here", "my my", "we use pnpm", "\"I\" me", "我们", "She had it", "Finished!", "“I”"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, project bool) {
		o := rewriteOptions{names: map[string]bool{"Karim": true}}
		if project {
			o.we, o.keepYou = "ledgerline", true
		}
		if fp := FirstPersonWords(rewrite(text, "Sam", o)); len(fp) > 0 {
			t.Fatalf("rewrite(%q) = %q keeps %q", text, rewrite(text, "Sam", o), fp)
		}
	})
}
