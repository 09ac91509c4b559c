package distill

import (
	"strings"
	"testing"
	"time"
)

// Norwegian facts in a chat are kept in the speaker's words, quoted, and
// never read as English ("i" is "in"); Norwegian small talk is dropped;
// English and French are not read as Norwegian. The sentences are
// written here, not taken from the labelled set.
func TestDistil_Norwegian(t *testing.T) {
	at := time.Date(2026, 2, 9, 18, 0, 0, 0, time.UTC)
	s := chat(at, "whatsapp", "no1", "Kari",
		"Olav: Hei vennen! Godt nytt år 🎆",
		"Kari: Hei pappa! Takk i like måte",
		"Olav: Legen ringte. Jeg har fått time for kneoperasjonen 12. mars på Haukeland sykehus.",
		"Kari: Endelig!",
		"Olav: Vi har bestemt å selge hytta i Volda. Mamma vil ikke kjøre dit lenger",
		"Kari: Så fint, det er lov i jula",
		"Olav: Farmor fyller 90 i mai, fest på lørdag 16. mai",
	)
	facts := Distil(s)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
		if len(FirstPersonWords(f.Text)) > 0 {
			t.Errorf("first person outside quotes: %q", f.Text)
		}
	}
	joined := strings.Join(texts, "\n")
	for _, want := range []string{
		`Olav said: "Jeg har fått time for kneoperasjonen 12. mars på Haukeland sykehus."`,
		`Olav said: "Vi har bestemt å selge hytta i Volda."`,
		`Olav said: "Farmor fyller 90 i mai, fest på lørdag 16. mai"`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in:\n%s", want, joined)
		}
	}
	for _, small := range []string{"Hei", "Takk", "Endelig", "det er lov", "Olav julas", "Kari jula"} {
		if strings.Contains(joined, small) {
			t.Errorf("small talk or an English misreading %q kept in:\n%s", small, joined)
		}
	}
	for _, other := range []string{
		"I was on the boat on Christmas Day",
		"Han Solo is my favourite, for real",
		"On le met en vente en mai",
		"Håkon and I can split the present",
	} {
		if f := analyse(other, nil); f.lang == norwegian {
			t.Errorf("%q read as Norwegian", other)
		}
	}
	if f := analyse("min hofte er mye bedre nå", nil); f.lang != norwegian || !f.subject || f.themeHits[ThemeHealth] == 0 {
		t.Errorf("min hofte: not the speaker's health: %+v", f)
	}
}
