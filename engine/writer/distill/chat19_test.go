package distill

import (
	"strings"
	"testing"
)

// Small talk in the distiller's blocks, round four (chat19), in sentences
// written here (not from the labelled set).

// A coding session's labelled report is its outcome even when its verbs
// are in the present ("adds", "is clean", "shows 4 to add"): the step
// narrated on the way ("I've added a retry …") is not what the session
// left.
func TestDistil_LabelledReportIsTheOutcome(t *testing.T) {
	s := chat(saturday, "claude-code", "rep19", "",
		"owner: the staging queue needs a dead-letter topic, and alarms on its depth",
		"assistant: I'll look at how queues.tf is laid out first.",
		"assistant: I've added a `redrive_policy` to the orders queue; validate is clean and the plan adds four resources.",
		"owner: good, and never apply, I do that after review",
		"assistant: Recap: `queues.tf` now has `orders-dlq` with a redrive after 5 receives, and `alarms.tf` pages #ops when its depth goes over 10. `terraform validate` is clean and the plan shows 4 to add, 0 to change. Nothing applied, as you asked.",
	)
	s.Project = "/src/staging-infra"
	var outcomes []string
	for _, f := range Distil(s) {
		if f.Kind == KindOutcome {
			outcomes = append(outcomes, f.Text)
		}
	}
	joined := strings.Join(outcomes, "\n")
	if !strings.Contains(joined, "orders-dlq") || strings.Contains(joined, "redrive_policy") {
		t.Errorf("outcome is not the labelled report:\n%s", joined)
	}
}

// A reply whose first sentence is the teller's name alone, before a full
// stop, calls them out as "Name!" does: the news stays where it was told,
// the reply goes. The same shape with news of its own stays.
func TestDistil_NameAloneBeforeFullStopCallsOutTeller(t *testing.T) {
	s := chat(saturday, "whatsapp", "call19", "Maeve",
		"Tadhg: I entered the Lough Derg swim, 10 km on 14 September. Someone talk me out of it",
		"Maeve: TADHG. You maniac. I'll be in the rescue kayak eating sandwiches")
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "Lough Derg") || strings.Contains(joined, "kayak") {
		t.Errorf("the call-out is kept or the news is lost:\n%s", joined)
	}
	s = chat(saturday, "whatsapp", "call19b", "Maeve",
		"Tadhg: I entered the Lough Derg swim, 10 km on 14 September. Someone talk me out of it",
		"Maeve: Tadhg. Guess what, I got engaged on Saturday in Kilkee")
	if joined = keptTexts(t, s); !strings.Contains(joined, "engaged") {
		t.Errorf("news after the name was dropped:\n%s", joined)
	}
}

// A short turn closing with thanks says how its writer is, not news
// ("Slowly! Physio says swimming again in March. Thanks Pieter"); a longer
// one, or one with a number, still tells something.
func TestDistil_ShortTurnClosingWithThanksIsSmallTalk(t *testing.T) {
	s := chat(saturday, "signal", "thx19", "Joost",
		"Ines: We finally moved to Utrecht last week, the flat is all boxes",
		"Ines: And your knee, is it better? Pieter asks",
		"Joost: Slowly! Physio says swimming again in March. Thanks Pieter",
		"Ines: Also we adopted a greyhound called Bolt last Sunday")
	joined := keptTexts(t, s)
	if strings.Contains(joined, "swimming") || !strings.Contains(joined, "Bolt") {
		t.Errorf("the thanks is kept or the news is lost:\n%s", joined)
	}
	s = chat(saturday, "signal", "thx19b", "Joost",
		"Ines: We finally moved to Utrecht last week, the flat is all boxes",
		"Ines: And your knee, is it better? Pieter asks",
		"Joost: Cast comes off on 3 March. Thanks Pieter")
	if joined = keptTexts(t, s); !strings.Contains(joined, "3 March") {
		t.Errorf("a dated turn closing with thanks was dropped:\n%s", joined)
	}
}

// A short welcome that names nobody answers the newcomer's hello: a
// pleasantry, whatever it calls broken. One with a date tells the
// newcomer something, and one that turns to news ("btw") is news.
func TestDistil_NamelessWelcomeIsSmallTalk(t *testing.T) {
	s := chat(saturday, "slack", "wel19", "Oona",
		"Oona: news: Ruairí Dunne starts on Monday 3 March as our second SRE, from Stripe",
		"Ruairí Dunne: Hi all! Delighted to be here, the office looks great",
		"Cathal: welcome! the lift has been broken since Tuesday, classic")
	joined := keptTexts(t, s)
	if strings.Contains(joined, "lift") || !strings.Contains(joined, "second SRE") {
		t.Errorf("the welcome is kept or the news is lost:\n%s", joined)
	}
	for _, l := range []string{
		"Cathal: welcome! btw I'm moving to the Cork office in April",
		"Cathal: welcome! standup is at 9:30 every day in the Liffey room",
	} {
		s = chat(saturday, "slack", "wel19b", "Oona",
			"Oona: news: Ruairí Dunne starts on Monday 3 March as our second SRE, from Stripe",
			"Ruairí Dunne: Hi all! Delighted to be here, the office looks great", l)
		if joined = keptTexts(t, s); !strings.Contains(joined, "Cathal") {
			t.Errorf("%q dropped:\n%s", l, joined)
		}
	}
}

// A chat's summary does not end on its teller's short laughing aside
// ("Basia the retired teacher 😂"), even when the aside is kept as a block;
// it ends on the last fact when that fact is said plainly.
func TestSummary_DoesNotEndOnLaughingAside(t *testing.T) {
	lines := []string{
		"Zofia: I hand in my notice at Brightline in March",
		"Ewa: and who looks after Staś when you're both working?",
		"Zofia: Ciocia Basia takes him Mondays and Tuesdays, Piotr works from home on Fridays",
		"Zofia: Basia the retired teacher 😂",
	}
	s := chat(saturday, "whatsapp", "sum19", "Zofia", lines...)
	sum := Summary(s)
	if strings.Contains(sum.Text, "retired teacher") || !strings.Contains(sum.Text, "notice") {
		t.Errorf("summary ends on the laughing aside: %q", sum.Text)
	}
	lines[3] = "Zofia: and Piotr retired from the army last Friday"
	s = chat(saturday, "whatsapp", "sum19b", "Zofia", lines...)
	if sum = Summary(s); !strings.Contains(sum.Text, "notice") || !strings.Contains(sum.Text, "army") {
		t.Errorf("summary does not end on the plain last fact: %q", sum.Text)
	}
}
