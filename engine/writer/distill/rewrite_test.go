package distill

import (
	"slices"
	"testing"
)

func TestThird(t *testing.T) {
	for in, want := range map[string]string{
		"have": "has", "go": "goes", "do": "does", "try": "tries", "watch": "watches", "play": "plays",
		"started": "started", "can": "can", "am": "is", "don't": "doesn't", "run": "runs", "fix": "fixes",
		"got": "got", "was": "was", "were": "was", "haven't": "hasn't", "2025": "2025",
	} {
		if got := third(in); got != want {
			t.Errorf("third(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRewrite(t *testing.T) {
	names := map[string]bool{"Karim": true, "Theo": true}
	for _, tc := range []struct {
		text, subject string
		o             rewriteOptions
		want          string
	}{
		{"I'm swamped with work and the kids", "Melanie", rewriteOptions{}, "Melanie is swamped with work and the kids."},
		{"I adopted a cat!", "Nadia", rewriteOptions{}, "Nadia adopted a cat."},
		{"My sister got engaged", "Nadia", rewriteOptions{}, "Nadia's sister got engaged."},
		{"I love my job", "Sam", rewriteOptions{}, "Sam loves their job."},
		{"I need help with a speech", "the owner", rewriteOptions{}, "The owner needs help with a speech."},
		{"I never know what a cup is", "the owner", rewriteOptions{}, "The owner never knows what a cup is."},
		{"I gave it up and I'm not sure I'll go back", "Mel", rewriteOptions{},
			"Mel gave it up and they are not sure they will go back."},
		{"I might get them to send me", "Nadia", rewriteOptions{}, "Nadia might get them to send them."},
		{"me and my partner Karim", "the owner", rewriteOptions{names: names}, "The owner and their partner Karim."},
		// No subject of its own, or one in another sentence: quoted.
		{"She had her knee replacement", "Mel", rewriteOptions{}, `Mel said: "She had her knee replacement"`},
		{"Staff engineer at Quillstack", "Nadia", rewriteOptions{}, `Nadia said: "Staff engineer at Quillstack"`},
		// A person's "we" is reported as "they", with the speaker named first.
		{"we're moving to York!", "Mel", rewriteOptions{}, "Mel said they are moving to York."},
		{"Our new Kia Niro has loads of space so I'll charge in Keswick", "Tomasz", rewriteOptions{names: map[string]bool{"Kia": true}},
			"Tomasz said their new Kia Niro has loads of space so they will charge in Keswick."},
		{"let's go with Keswick", "Mel", rewriteOptions{}, `Mel said: "let's go with Keswick"`},
		// A relative named by kinship is the speaker's.
		{"Baba had a stent fitted last week", "Sami", rewriteOptions{}, "Sami's baba had a stent fitted last week."},
		{"Staff engineer at Quillstack", "Nadia", rewriteOptions{}, `Nadia said: "Staff engineer at Quillstack"`},
		{`They say they're "looking" lol`, "Mel", rewriteOptions{}, `Mel said: "They say they're 'looking'"`},
		// A dropped "I" before a past verb comes back.
		{"Finished in 58 minutes!!!", "Mel", rewriteOptions{}, "Mel finished in 58 minutes."},
		// A sentence about someone named stands alone.
		{"Karim is allergic to peanuts", "the owner", rewriteOptions{names: names}, "Karim is allergic to peanuts."},
		// A project's "we" is the project; an instruction keeps its "you".
		{"we use pnpm, not npm", "the owner", rewriteOptions{we: "tidepool-web", keepYou: true},
			"Tidepool-web uses pnpm, not npm."},
		{"before you commit, always run make lint", "the owner", rewriteOptions{we: "ledgerline", keepYou: true},
			"Before you commit, always run make lint."},
		// An assistant's summary: "I" is the assistant, "you" the owner.
		{"I now take the mutex, as you asked", "the assistant", rewriteOptions{you: "the owner", prose: true},
			"The assistant now takes the mutex, as the owner asked."},
		{"我九月要搬回上海了", "Lin Wei", rewriteOptions{}, "Lin Wei九月要搬回上海了."},
		{"我们九月搬家", "Lin Wei", rewriteOptions{}, `Lin Wei said: "我们九月搬家"`},
	} {
		if got := rewrite(tc.text, tc.subject, tc.o); got != tc.want {
			t.Errorf("rewrite(%q, %q) = %q, want %q", tc.text, tc.subject, got, tc.want)
		}
		if fp := FirstPersonWords(rewrite(tc.text, tc.subject, tc.o)); len(fp) > 0 {
			t.Errorf("rewrite(%q) keeps first person %q", tc.text, fp)
		}
	}
}

func TestFirstPersonWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{`Mel said: "I'm here"`, nil},
		{"I am here", []string{"I"}},
		{"Send me.", []string{"me"}},
		{"Our flat and my car; let's go", []string{"Our", "my", "let's"}},
		{"我们去", []string{"我"}},
		{"Theirs is mine", []string{"mine"}},
		{"The owner prefers tea.", nil},
		{`“I” was quoted`, nil},
	} {
		if got := FirstPersonWords(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("FirstPersonWords(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
