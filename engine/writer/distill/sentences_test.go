package distill

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string
	}{
		{"path dots end nothing", "Run the tests with go test -race ./... in this repo, that's what CI does.",
			[]string{"Run the tests with go test -race ./... in this repo, that's what CI does."}},
		{"an initial is not an end", "Ursula K. Le Guin is my favourite author. What next?",
			[]string{"Ursula K. Le Guin is my favourite author.", "What next?"}},
		{"abbreviations", "Bring snacks, e.g. crisps. Thanks!", []string{"Bring snacks, e.g. crisps.", "Thanks!"}},
		{"emoji end a sentence and vanish", "Chaotic 😅 honestly I'm swamped 🎉🎉", []string{"Chaotic", "honestly I'm swamped"}},
		{"fenced code is not split", "Here:\n```\n$ go test ./...\nok  pkg 0.1s\n```\nDone.", []string{"Here:", "Done."}},
		{"CJK stops", "我九月要搬回上海了，公司把我调回总部。So this trip is my goodbye trip",
			[]string{"我九月要搬回上海了，公司把我调回总部。", "So this trip is my goodbye trip"}},
		{"list items", "- 400 g chickpeas\n- 200 g spinach\n1. rest", []string{"400 g chickpeas", "200 g spinach", "rest"}},
		{"backticks hold a command", "Run `make lint. now` please. Then commit.", []string{"Run `make lint. now` please.", "Then commit."}},
		{"numbers and files", "Version 3.2 is in config.toml and go.mod. Fine.", []string{"Version 3.2 is in config.toml and go.mod.", "Fine."}},
		{"marks stay together", "Really?! Yes...", []string{"Really?!", "Yes..."}},
		{"no. is a number only before one", "Oh no. That's so stressful. We live at No. 5 now.",
			[]string{"Oh no.", "That's so stressful.", "We live at No. 5 now."}},
		{"tables are not sentences", "| a | b |\n|---|---|\n| 1 | 2 |", nil},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, s := range split(tc.content).sentences {
				got = append(got, s.text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("split(%q) = %q, want %q", tc.content, got, tc.want)
			}
		})
	}
}

func TestSplit_Questions(t *testing.T) {
	seg := split("Can you help? I'm vegetarian. Really?!")
	var q []bool
	for _, s := range seg.sentences {
		q = append(q, s.question)
	}
	if !slices.Equal(q, []bool{true, false, true}) {
		t.Errorf("questions %v", q)
	}
}

func TestTokens_JoinBack(t *testing.T) {
	for _, s := range []string{"send me.", "go.mod and ./... and ~/notes", "I'm “here”", "tidepool-theme!", "", "a--b", "我们去"} {
		toks := tokens(s)
		joined := ""
		for _, tok := range toks {
			joined += tok
		}
		if joined != s {
			t.Errorf("tokens(%q) = %q: joins to %q", s, toks, joined)
		}
	}
	if got := tokens("send me."); !slices.Equal(got, []string{"send", " ", "me", "."}) {
		t.Errorf("tokens(send me.) = %q", got)
	}
	if got := tokens("go.mod"); !slices.Equal(got, []string{"go.mod"}) {
		t.Errorf("tokens(go.mod) = %q", got)
	}
}

// A Nordic or German date's ordinal period ends no sentence; "kl." is an
// abbreviation. Written for the rule, not taken from the labelled set.
func TestSplit_OrdinalDates(t *testing.T) {
	for in, want := range map[string]int{
		"Timen er 16. mars på sykehuset. Endelig!":       2,
		"Konsert lørdag 13. juni 2026 kl. 19.00 i kirka": 1,
		"Wir treffen uns am 3. Oktober.":                 1,
		"I ran 5. Then I stopped.":                       2,
		"Chapter 12. Mars is red.":                       2,
	} {
		got := split(in).sentences
		if len(got) != want {
			t.Errorf("%q: %d sentences %v, want %d", in, len(got), got, want)
		}
	}
}
