package distill

import (
	"strings"
	"testing"
	"time"
)

// A group chat's third-person announcements are news about the group or a
// named member, dated: they are kept (issue 22 §1: plans and events with
// their dates), even when they open with "Reminder:" and say no "I".
func TestDistil_KeepsGroupAnnouncements(t *testing.T) {
	s := chat(saturday, "whatsapp", "g1", "Sam",
		"Tom: Morning all",
		"Tom: Reminder: the freeze starts on Monday, no deploys until the 30th",
		"Sam: 👍",
		"Ana: Lena leaves on the 14th of July",
		"Ana: Training moves to Thursdays at 7pm from next week",
		"Tom: Reminder: the end-of-season dinner is at the Railway Hotel on Saturday 28 June, 7pm")
	s.Group = true
	facts := Distil(s)
	for _, want := range []string{"freeze starts", "Lena leaves", "Training moves", "end-of-season dinner"} {
		found := false
		for _, f := range facts {
			found = found || strings.Contains(f.Text, want)
		}
		if !found {
			var got []string
			for _, f := range facts {
				got = append(got, f.Text)
			}
			t.Errorf("the announcement %q was dropped; kept %q", want, got)
		}
	}
}

// Chat between friends that is not a life, each in a shape of its own:
// passing words on, a verdict said of no one, where someone is right now,
// a reported question, a riddle about someone else, a pronoun object
// after a dropped "I", and whom a greeting is for.
func TestDistil_DropsTheMomentAndVerdicts(t *testing.T) {
	s := chat(saturday, "whatsapp", "c9", "Sam",
		"Jo: Good, I will tell Marta the doctor agrees",
		"Sam: Snowdon is worth the climb",
		"Jo: Knee surgery recovery goes better than people think",
		"Sam: Porto football is very serious, nobody smiles",
		"Jo: I'm in the queue for the ferry now, car full of snacks",
		"Sam: I'm home alone with the dog and a fridge full of my mum's curries",
		"Sam: my dad said \"who will buy cakes from a van\". thanks dad",
		"Jo: Guess who came to the dentist with me on Friday and cried at the chair",
		"Sam: Saw one from the car",
		"Jo: Congratulations, Auntie twice over!",
		"Sam: Brompton is the best bike Britain ever made, I stand by it",
		"Jo: Don't tell Marta, my sister will copy it")
	if facts := Distil(s); len(facts) != 0 {
		var texts []string
		for _, f := range facts {
			texts = append(texts, f.Text)
		}
		t.Errorf("the moment and verdicts gave facts: %q", texts)
	}
	// The same shapes said of oneself, or dated, stay facts.
	s = chat(saturday, "whatsapp", "c10", "Sam",
		"Jo: We're calling her Amélie, after my grandmother",
		"Sam: I commute on it every day, 12 km each way",
		"Jo: Marta is pregnant, due in November")
	if facts := Distil(s); len(facts) != 3 {
		var texts []string
		for _, f := range facts {
			texts = append(texts, f.Text)
		}
		t.Errorf("want 3 facts, got %q", texts)
	}
}

// News after a colon, a diet taken up, what "Booked." booked, and a date
// read in its own sentence are kept; the weather is small talk.
func TestDistil_ColonsBookingsDietsAndTheWeather(t *testing.T) {
	sunday := time.Date(2025, 5, 18, 21, 2, 0, 0, time.UTC)
	s := chat(sunday, "whatsapp", "c11", "Sam",
		"Jo: Ok we had the scan on Friday so I can finally tell you now: I'm pregnant!! Tiago has decided it's going to be a dinosaur",
		"Sam: also fair warning, I've gone vegan",
		"Jo: Booked. Saturday 31 May, the Crown Hotel, 7pm, partners welcome.",
		"Sam: We had 41 degrees here on Saturday, nobody left the aircon")
	facts := Distil(s)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"pregnant", "vegan", "Crown Hotel"} {
		if !strings.Contains(all, want) {
			t.Errorf("no fact says %q: %q", want, texts)
		}
	}
	if strings.Contains(all, "aircon") {
		t.Errorf("the weather was kept: %q", texts)
	}
}

// A short answer naming something keeps the assistant's question, even
// when its words would read alone ("Under two hours."); "No idea
// honestly" names nothing.
func TestDistil_ShortAnswersKeepTheirQuestion(t *testing.T) {
	s := chat(saturday, "chatgpt", "c12", "",
		"owner: Help me plan a talk for the chess club's annual dinner.",
		"assistant: Happy to. How long should it be, and who will be there?",
		"owner: Under two hours.",
		"assistant: And how many games has the club won this year?",
		"owner: No idea honestly.")
	var texts []string
	for _, f := range Distil(s) {
		texts = append(texts, f.Text)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, `Asked "Happy to. How long should it be`) && !strings.Contains(all, `Asked "How long should it be`) {
		t.Errorf("the short answer lost its question: %q", texts)
	}
	if strings.Contains(all, "No idea") {
		t.Errorf("\"No idea honestly\" was kept: %q", texts)
	}
}
