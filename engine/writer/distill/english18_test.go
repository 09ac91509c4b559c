package distill

import (
	"strings"
	"testing"
)

// English rewriting (distill18), in sentences written here (not from the
// labelled set).
func TestRewrite_English18(t *testing.T) {
	names := map[string]bool{"Tadhg": true, "Orla": true}
	for _, tc := range []struct {
		text, subject string
		want          string
	}{
		// "myself" for "I" is the speaker, named.
		{"Tadhg and myself are driving to Sligo on Friday", "Maeve Daly", "Tadhg and Maeve Daly are driving to Sligo on Friday."},
		{"I fixed the boiler myself", "Maeve Daly", "Maeve Daly fixed the boiler themselves."},
		// "'d" before a past participle is "had".
		{"I'd booked the Friday off for it", "Colm", "Colm had booked the Friday off for it."},
		{"I'd already paid the deposit", "Colm", "Colm had already paid the deposit."},
		{"I'd love a week in Kerry", "Colm", "Colm would love a week in Kerry."},
		{"I'd need a lift from the station", "Colm", "Colm would need a lift from the station."},
		{"we'd moved the date before the storm", "Colm", "Colm said they had moved the date before the storm."},
		// A trailing "I think" is the speaker's, in front.
		{"the library opens late on Thursdays I think", "Orla", "Orla thinks the library opens late on Thursdays."},
		{"Tadhg has the spare key, I reckon", "Maeve", "Maeve reckons Tadhg has the spare key."},
		// A fragment whose only verb is in a "we" clause is quoted, not "said Ceiling…".
		{"Kitchen of the flat we haven't seen yet", "Orla", `Orla said: "Kitchen of the flat we haven't seen yet"`},
		{"Saturday we're painting the hall", "Orla", "Orla said Saturday they are painting the hall."},
		{"The flat we saw is gone", "Orla", "Orla said the flat they saw is gone."},
	} {
		if got := rewrite(tc.text, tc.subject, rewriteOptions{names: names}); got != tc.want {
			t.Errorf("rewrite(%q, %q) = %q, want %q", tc.text, tc.subject, got, tc.want)
		}
	}
}

// spaced is chat with a day between turns: news told days apart.
func spaced(owner string, lines ...string) Session {
	s := chat(saturday, "whatsapp", "spaced", owner, lines...)
	for i := range s.Turns {
		s.Turns[i].Time = saturday.AddDate(0, 0, i)
	}
	return s
}

// News told in a burst, with no verb or unit, is kept in the speaker's
// words; a burst that cheers someone else's news (their number, their
// burst, their news within the hour) or captions a photo is not.
func TestDistil_BurstNews(t *testing.T) {
	for _, line := range []string{
		"Fintan: SOLD. 212 and the buyers are cash",
		"Fintan: Bake sale raised €1,320 for the hospice!!! Thanks all",
		"Fintan: done!!! 4 hours 02. Legs gone",
		"Fintan: Ola fue seleccionada!!! 2 plazas de 40",
	} {
		joined := keptTexts(t, spaced("Gráinne", "Gráinne: how are things", line))
		if joined == "" {
			t.Errorf("burst %q dropped", line)
		}
	}
	for _, lines := range [][]string{
		{"Fintan: we sold the van for 212 today", "Gráinne: 212!!! legend"},
		{"Fintan: WE WON THE COUNTY FINAL", "Gráinne: Great stuff!! 14 years waiting"},
		{"Fintan: Orla starts at Medtronic on 3 March as a quality engineer", "Gráinne: finally!! 3 years of applying"},
		{"Fintan: [photo]", "Fintan: Mam blew out the candles 🎂 90!!"},
	} {
		if joined := keptTexts(t, chat(saturday, "whatsapp", "cheer", "Gráinne", lines...)); containsAny(joined, "legend", "waiting", "applying", "candles") {
			t.Errorf("cheer or caption kept from %q:\n%s", lines, joined)
		}
	}
}

// A turn opening with "*" or "sorry," and a value corrects the speaker's
// turn before it: the corrected value is kept with what it corrects.
func TestDistil_StarCorrection(t *testing.T) {
	for _, lines := range [][]string{
		{"Fintan: the plumber is coming Thursday, €180 for the call-out", "Fintan: * €210, he forgot the VAT"},
		{"Fintan: the plumber is coming Thursday, €180 for the call-out", "Fintan: sorry, €210. he forgot the VAT"},
	} {
		facts := Distil(chat(saturday, "whatsapp", "fix", "Gráinne", lines...))
		found := false
		for _, f := range facts {
			if containsAny(f.Text, "€210") && containsAny(f.Text, "€180") && len(f.Cites) == 2 {
				found = true
			}
		}
		if !found {
			t.Errorf("correction %q not kept with what it corrects: %+v", lines[1], facts)
		}
	}
	// Someone else's "*" corrects nothing of theirs.
	facts := Distil(chat(saturday, "whatsapp", "fix", "Gráinne",
		"Fintan: the plumber is coming Thursday, €180 for the call-out", "Gráinne: * 210 say"))
	for _, f := range facts {
		if containsAny(f.Text, "210") {
			t.Errorf("another speaker's star taken as a correction: %q", f.Text)
		}
	}
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// A vow staked on an outcome, where someone is crying right now, and a
// club's match result in its group are small talk; the same words with
// news in them are not.
func TestDistil_BravadoMomentsAndResults(t *testing.T) {
	joined := keptTexts(t, chat(saturday, "whatsapp", "banter", "Gráinne",
		"Fintan: the Cork half marathon is on Sunday 12 October",
		"Gráinne: Under two hours or I'm never running again, ever again, for life",
		"Fintan: I'm outside the registry office shaking in the car",
		"Fintan: I'm starting at Medtronic in Galway on 3 March as a quality engineer"))
	for _, b := range []string{"running again", "shaking"} {
		if strings.Contains(joined, b) {
			t.Errorf("banter %q kept:\n%s", b, joined)
		}
	}
	if !strings.Contains(joined, "Medtronic") {
		t.Errorf("news dropped:\n%s", joined)
	}
	group := chat(saturday, "whatsapp", "club", "Gráinne",
		"Úna: Lost by 3 points to Moycullen, heads up, long season",
		"Úna: 1-12 to 0-10, we won!!! Brilliant work",
		"Úna: Training moves to Wednesdays at 19:30 from 4 March")
	group.Group = true
	joined = keptTexts(t, group)
	if strings.Contains(joined, "Moycullen") || strings.Contains(joined, "1-12") {
		t.Errorf("a club's match result kept:\n%s", joined)
	}
	if !strings.Contains(joined, "Wednesdays") {
		t.Errorf("club news dropped:\n%s", joined)
	}
}

// Shouted news in the first person needs no number; shouted cheers and
// third-person capitals are not news of the speaker's.
func TestDistil_ShoutedFirstPersonNews(t *testing.T) {
	if joined := keptTexts(t, spaced("Gráinne", "Gráinne: any news on the flat", "Fintan: 🔑 WE GOT THE FLAT")); !strings.Contains(joined, "GOT THE FLAT") {
		t.Errorf("shouted news dropped: %q", joined)
	}
	if joined := keptTexts(t, spaced("Gráinne", "Gráinne: any news on the flat", "Fintan: MAGNIFICENT STUFF. PROUD DAY")); joined != "" {
		t.Errorf("shouted cheer kept: %q", joined)
	}
}

// A value corrected against the one it replaces, with a unit or a
// currency between ("€158 a night, not €142"), is what to keep.
func TestCorrectedRe_UnitsAndCurrency(t *testing.T) {
	for text, want := range map[string]bool{
		"the hotel is €158 a night, not €142": true, "74 minutes, not 68": true,
		"it's €12 a day, not €15": true, "I have 3 kids, not a dog": false,
	} {
		if got := correctedRe.MatchString(text); got != want {
			t.Errorf("correctedRe(%q) = %v, want %v", text, got, want)
		}
	}
}
