package distill

import (
	"strings"
	"testing"
)

// Round nine, in sentences written here (not from the labelled set).

// A speaker whose lines are mostly notices (an emoji, a label and a
// colon) is a bot, whatever it is called: all its lines go, the people's
// words about the same incident stay. One such line from a person keeps
// that person's other lines.
func TestDistil_BotByItsNotices(t *testing.T) {
	s := chat(saturday, "slack", "bot9", "Mira",
		"Opsgenie: 🚨 Alert: ORD-88 checkout error rate above 5% (prod)",
		"Opsgenie: Acknowledged by Tomas Berg",
		"Tomas: I renewed the card processor's certificate on 1 March, errors are back under 1%",
		"Opsgenie: ✅ Closed: ORD-88 (duration 14m)",
		"Opsgenie: 🗓 Rota changed: Mira Holm 3 Mar – 10 Mar",
		"Lena: 🎉 News: I passed the AWS exam on 2 March, finally",
		"Lena: I start the Kubernetes course on 20 April in Oslo",
	)
	joined := keptTexts(t, s)
	for _, bad := range []string{"ORD-88", "Acknowledged", "Rota changed"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a bot's notice %q kept in:\n%s", bad, joined)
		}
	}
	for _, want := range []string{"certificate", "20 April"} {
		if !strings.Contains(joined, want) {
			t.Errorf("a person's fact %q dropped from:\n%s", want, joined)
		}
	}
}

// Round nine's shapes of a project rule: a setting under a short label, a
// value corrected with "no,", settings given as two numbers, a key=value
// tag and a channel a plan goes to; and requests and answers that keep
// nothing. Written here, not taken from the labelled set.
func TestProjectFact_RoundNineShapes(t *testing.T) {
	for _, tc := range []struct{ said, want string }{
		{"bonus per streak: 3 wins 5 points, 5 wins 10 points.", "Bonus per streak"},
		{"order of payouts: the oldest invoice first, then the largest one", "the oldest invoice first"},
		{"no, every bucket lives in eu-north-1, the lawyers insist", "eu-north-1"},
		{"timeout on the webhook 30 seconds, retries 3.", "retries 3"},
		{"every lambda gets the label owner=billing-team and nothing else", "owner=billing-team"},
		{"the changelog goes to #billing-releases before the tag is pushed", "#billing-releases"},
	} {
		if got := ownerRule("ledgerwell", tc.said); !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%q: kept %q, want a fact with %q", tc.said, got, tc.want)
		}
	}
	for _, said := range []string{"fix: the test fails on CI again", "no, that's wrong.", "no, the other one.", "can you check: the build is red",
		"I moved 3 tanks to 2 racks this morning"} {
		if got := ownerRule("ledgerwell", said); len(got) > 0 {
			t.Errorf("%q kept %q", said, got)
		}
	}
}

// A coding session stopped and taken up again reports twice: the first
// labelled report is an outcome too, not only the last one.
func TestDistil_InterimSummaryIsAnOutcome(t *testing.T) {
	s := chat(saturday, "claude-code", "sum9", "",
		"owner: add the refund export to the ledger tool",
		"assistant: Summary: `RefundExport` now writes refunds to exports/refunds.csv; 6 tests pass. Not done: the monthly totals, left for next time as asked.",
		"owner: ok, now the monthly totals please",
		"assistant: Summary: the monthly totals are added to `RefundExport` and all 9 tests pass; committed on branch refunds-export.",
	)
	s.Project = "/src/ledgerwell"
	var outcomes []string
	for _, f := range Distil(s) {
		if f.Kind == KindOutcome {
			outcomes = append(outcomes, f.Text)
		}
	}
	joined := strings.Join(outcomes, "\n")
	for _, want := range []string{"6 tests pass", "9 tests pass"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no outcome with %q in:\n%s", want, joined)
		}
	}
}

// Read by shape, a Polish month in a date's case ("14 stycznia", "od
// marca") and a date with dots, day first ("23.11"), are a fact's shape;
// a decimal ("2.5") is not a date.
func TestDistil_PolishMonthAndDottedDate(t *testing.T) {
	s := chat(saturday, "whatsapp", "pl9", "Mira",
		"Tomek: Przypominam: wujek Staszek ma 70 urodziny 9 kwietnia, obiad u cioci w Tarnowie",
		"Tomek: Przeprowadzka do Gdyni na pewno 23.11, auto już zamówione",
		"Tomek: no i zjadłem 2.5 pizzy, nie mogę się ruszyć",
	)
	joined := keptTexts(t, s)
	for _, want := range []string{"9 kwietnia", "23.11"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "pizzy") {
		t.Errorf("a decimal read as a date:\n%s", joined)
	}
}

// A list pasted under a label gives its label and its first line; a
// label over lines with no numbers, or a list of two lines, gives none.
func TestDistil_LabelledListKeepsItsTop(t *testing.T) {
	s := chat(saturday, "discord", "list9", "Mira",
		"Oskar: Quiz night standings after round 3:\n1. Team Fjord — 48 pts\n2. Mira's lot — 41\n3. The Owls — 37",
		"Oskar: Things to bring:\nchairs\nsnacks\na speaker",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "Team Fjord — 48 pts") || !strings.Contains(joined, "standings") {
		t.Errorf("no fact with the list's label and top line in:\n%s", joined)
	}
	if strings.Contains(joined, "snacks") {
		t.Errorf("a list with no numbers kept:\n%s", joined)
	}
}

// What someone would do if something were so is no fact about them,
// the "if" before or after; a plan with an "if" that says no "would"
// stays.
func TestDistil_IfWouldIsNoFact(t *testing.T) {
	s := chat(saturday, "telegram", "if9", "Mira",
		"Oskar: honestly if I got the Bergen job I'd sell the car and cycle everywhere",
		"Mira: I'd move to Lisbon tomorrow for the light, if Lisbon had any jobs in hydrology",
		"Oskar: I start at the Bergen harbour office on 3 March, if the visa comes through",
	)
	joined := keptTexts(t, s)
	for _, bad := range []string{"sell the car", "Lisbon"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a hypothetical %q kept in:\n%s", bad, joined)
		}
	}
	if !strings.Contains(joined, "3 March") {
		t.Errorf("the dated plan was dropped:\n%s", joined)
	}
}

// In a group, what follows an asker's question says why it is asked;
// dated, it is news all the same.
func TestDistil_ReasonAfterAQuestion(t *testing.T) {
	s := chat(saturday, "slack", "why9", "Mira",
		"Oskar: who can cover the release on Friday? I'm stuck at the dentist with no laptop",
		"Lena: anyone driving to the lake? I'm moving to Tromsø next Saturday, last chance",
	)
	s.Group = true
	joined := keptTexts(t, s)
	if strings.Contains(joined, "dentist") {
		t.Errorf("the reason for a question kept:\n%s", joined)
	}
	if !strings.Contains(joined, "Tromsø") {
		t.Errorf("dated news after a question dropped:\n%s", joined)
	}
}

// "ok, …" saying again what others just agreed is a note taken; "ok, …"
// with a number of its own is news.
func TestDistil_OkEchoesTheAgreement(t *testing.T) {
	s := chat(saturday, "slack", "echo9", "Mira",
		"Oskar: I can present the migration on 12 March if the staging run passes",
		"Lena: 12 March works for me",
		"Mira: ok, the migration demo is moved to 12 March. I'll book the room",
		"Lena: ok, and the rollback drill is on 19 March with the whole team",
	)
	s.Group = true
	joined := keptTexts(t, s)
	if strings.Contains(joined, "demo is moved") {
		t.Errorf("an echo of the agreement kept:\n%s", joined)
	}
	if !strings.Contains(joined, "19 March") {
		t.Errorf("news after \"ok,\" dropped:\n%s", joined)
	}
}

// A thing launched ("the new rota is live from today", "the pilot went
// live on the Bergen route") is news set for good, as "from now on" is.
func TestDistil_LiveFromToday(t *testing.T) {
	s := chat(saturday, "slack", "live9", "Mira",
		"Oskar: The new support rota is live from today.",
		"Lena: Card payments went live on the Bergen ferry route.",
		"Oskar: lunch is here",
	)
	s.Group = true
	joined := keptTexts(t, s)
	for _, want := range []string{"support rota", "Bergen ferry route"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "lunch") {
		t.Errorf("small talk kept:\n%s", joined)
	}
}

// A message followed by the app's own translation is read in the
// translation: the block says it once, without the label.
func TestDistil_AppTranslationIsRead(t *testing.T) {
	s := chat(saturday, "messenger", "tr9", "Mira",
		"Oma: Wnuczek Tadek bierze ślub 12 września w Krakowie\n[See translation] Grandson Tadek is getting married on 12 September in Kraków",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "married on 12 September") {
		t.Errorf("the translation was not read:\n%s", joined)
	}
	for _, bad := range []string{"translation", "ślub"} {
		if strings.Contains(joined, bad) {
			t.Errorf("%q kept in:\n%s", bad, joined)
		}
	}
}

// A line that mixes English with a date in a language read by shape
// ("niedziela 18 października", "sobota 6.06") counts the date.
func TestDistil_MixedLineWithAForeignDate(t *testing.T) {
	s := chat(saturday, "whatsapp", "mix9", "Mira",
		"Ola: so you know where to be. Imieniny babci: niedziela 14 czerwca, obiad u cioci w Tarnowie",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "14 czerwca") {
		t.Errorf("no fact with the date in:\n%s", joined)
	}
}

// "From today, …" starts something: today's date is no penalty there,
// as it is for how today is.
func TestDistil_FromTodayStartsSomething(t *testing.T) {
	s := chat(saturday, "slack", "today9", "Mira",
		"Oskar: From today this queue is in English, for Ana",
		"Lena: the office is freezing today",
	)
	s.Group = true
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "this queue is in English") {
		t.Errorf("the change from today dropped:\n%s", joined)
	}
	if strings.Contains(joined, "freezing") {
		t.Errorf("today's weather kept:\n%s", joined)
	}
}
