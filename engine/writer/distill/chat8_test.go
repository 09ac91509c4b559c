package distill

import (
	"strings"
	"testing"
)

// Round eight, in sentences written here (not from the labelled set).

// A tapback quotes someone else's message ("Loved “…”", "reacted 😂 to
// "…""), and a forward behind "⏩" is no one's news in this chat; the
// message reacted to is still kept where it was said.
func TestDistil_ReactionsAndFastForward(t *testing.T) {
	s := chat(saturday, "imessage", "react8", "Mira",
		"Tomas: The vet moved Biscuit's surgery to 14 March, 9 in the morning",
		"Mira: Loved “The vet moved Biscuit's surgery to 14 March”",
		"Mira: Laughed at “the landlord wants the keys by Friday”",
		"Mira: reacted 🙏 to \"Flights booked for 3 June!\"",
		"Tomas: ⏩ Forwarded\nATTENTION!! From 1 April every account pays 5 euros unless you send this to 10 people",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "14 March") {
		t.Errorf("the news itself was dropped:\n%s", joined)
	}
	for _, bad := range []string{"Loved", "Laughed", "Flights", "5 euros", "keys"} {
		if strings.Contains(joined, bad) {
			t.Errorf("a reaction or forward %q kept in:\n%s", bad, joined)
		}
	}
}

// A sentence strung on commas past fifty-odd words is a story told, its
// hour, year and names in passing; a plain sentence with a date stays.
func TestDistil_RantIsNoFact(t *testing.T) {
	s := chat(saturday, "whatsapp", "rant8", "Mira",
		"Tomas: so the plumber, Mr Halvorsen, you know him, the one with the van that never starts, calls me at 10 at night, at NIGHT, to say the boiler from 1994 is finished, fine, it was old, but he knew since March, his cousin told my neighbour at the bakery, and he said nothing, took the 40 euros for the check like nothing, and now he wants us out of the flat for a week in the middle of winter with two kids and a dog who hates the car",
		"Tomas: The new boiler goes in on 12 February, Halvorsen confirmed",
	)
	joined := keptTexts(t, s)
	if strings.Contains(joined, "bakery") {
		t.Errorf("a rant kept as a fact:\n%s", joined)
	}
	if !strings.Contains(joined, "12 February") {
		t.Errorf("the plain fact was dropped:\n%s", joined)
	}
}

// Chat drops accents ("icin", "gunu") and writes a month with its case
// ending ("haziranda", "Ekim'de"): both are still read by shape, and the
// month with its day is a fact's shape.
func TestDistil_UnaccentedMonthWithEnding(t *testing.T) {
	s := chat(saturday, "whatsapp", "month8", "Mira",
		"Tomas: Okulun son gunu 20 haziranda, karneler de o gun verilecek ama toren yok",
		"Tomas: Kuzenimin nişanı 3 Ekim'de, Bursa'da olacak ve herkes gelecek",
		"Mira: tamam, ne güzel",
	)
	joined := keptTexts(t, s)
	for _, want := range []string{"20 haziranda", "3 Ekim'de"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "güzel") {
		t.Errorf("small talk kept in:\n%s", joined)
	}
}

// An issue tracker's notice ("Ana P. created OPS-112: …") is the
// tracker's record, not someone's news.
func TestDistil_TrackerNotice(t *testing.T) {
	s := chat(saturday, "slack", "jira8", "Mira",
		"Linear: Tomas B. created OPS-112: Winter timetable 2027 for line 4 (due 14 March)",
		"Tomas: I start my new job at the Halvorsen depot on 14 March",
	)
	joined := keptTexts(t, s)
	if strings.Contains(joined, "OPS-112") {
		t.Errorf("a tracker's notice kept:\n%s", joined)
	}
	if !strings.Contains(joined, "14 March") {
		t.Errorf("the person's news was dropped:\n%s", joined)
	}
}

// A number told to the assistant against the one it replaces ("48
// minutes, not 41") is the value to keep.
func TestDistil_CorrectedNumberToAssistant(t *testing.T) {
	s := chat(saturday, "chatgpt", "fix8", "",
		"owner: Draft the bus memo for line 9 with a 10-minute headway",
		"assistant: Here is the draft memo for line 9.",
		"owner: Correction: the loop takes 48 minutes, not 41. I missed the layover at the depot.",
		"assistant: Thanks, updated.",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "48 minutes, not 41") {
		t.Errorf("the corrected value was dropped:\n%s", joined)
	}
}

// News labelled as news ("Update for the plan: …", "Reminder for
// everyone: …") with a number is kept, told to the assistant or to a
// group; a label with no number ("Quick question: …") is not news by its
// label alone.
func TestDistil_LabelledNewsToAssistant(t *testing.T) {
	s := chat(saturday, "chatgpt", "label8", "",
		"owner: Help me plan the seating for the school reunion dinner",
		"assistant: Happy to help. How many people are coming?",
		"owner: Update for the plan: the final count is 86, the hall confirmed it.",
		"assistant: Great, 86 it is.",
		"owner: Quick question: can round tables work here?",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "86") {
		t.Errorf("the labelled news was dropped:\n%s", joined)
	}
	if strings.Contains(joined, "round tables") {
		t.Errorf("a labelled question kept:\n%s", joined)
	}
}

// In a coding session a value said against the old one ("06:00 not
// 05:30"), a deadline with its date and a rule closed by "ever" are what
// the project keeps.
func TestProjectRules_CorrectedDeadlineEver(t *testing.T) {
	cases := map[string]string{
		"ok so the rule: the first bus leaves at 06:00:00 not 05:30:00, the depot said so": "06:00:00 not 05:30:00",
		"the export deadline is 3 March. show it on the dashboard":                         "deadline is 3 March",
		"nothing posts to the parents' group automatically, ever.":                         "automatically, ever",
	}
	for said, want := range cases {
		got := strings.Join(ownerRule("bus-plan", said), "\n")
		if !strings.Contains(got, want) {
			t.Errorf("%q: want a rule with %q, got %q", said, want, got)
		}
	}
	if got := ownerRule("bus-plan", "is the deadline 3 March? nothing from the depot yet, ever so slow"); len(got) != 0 {
		t.Errorf("a question or a complaint kept: %q", got)
	}
}

func TestDistil_LabelledNewsInAGroup(t *testing.T) {
	s := chat(saturday, "slack", "label8g", "Mira",
		"Tomas: Update from the club: 3 lanes are closed until the roof is fixed.",
		"Mira: Heads up: the coffee is great today",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "3 lanes") {
		t.Errorf("the labelled news was dropped:\n%s", joined)
	}
	if strings.Contains(joined, "coffee") {
		t.Errorf("a labelled remark with no number kept:\n%s", joined)
	}
}

// A month with a case ending ("Kasimda": in November) is a time said in
// a sentence: kept even in a turn with one function word, where a bare
// month ("hasta mayo") may be a joke.
func TestDistil_InflectedMonthInAWeakTurn(t *testing.T) {
	s := chat(saturday, "whatsapp", "weak8", "Mira",
		"Tomas: Kasimda resim kursuna yazildim, hep isterdim",
		"Mira: super",
	)
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "Kasimda") {
		t.Errorf("the dated news was dropped:\n%s", joined)
	}
}
