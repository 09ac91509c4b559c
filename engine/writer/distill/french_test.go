package distill

import (
	"strings"
	"testing"
	"time"
)

// French facts in a chat are kept in the speaker's words, quoted; French
// small talk is dropped; English is never read as French. The sentences
// are written here, not taken from the labelled set.
func TestDistil_French(t *testing.T) {
	at := time.Date(2026, 4, 6, 18, 0, 0, 0, time.UTC)
	s := chat(at, "messenger", "fr1", "Claire",
		"Gaston: Salut ma belle! Tu vas bien?",
		"Claire: Oui merci, grosse semaine",
		"Gaston: Grosse nouvelle: j'ai vendu le bateau au voisin. Ta mere est contente",
		"Claire: Bravo papa!",
		"Gaston: Pour ma hanche, la chirurgie est le 12 mai a Laval",
		"Claire: Je viens te chercher",
		"Gaston: On a loué un chalet pour juillet",
		"Gaston: Réunion du comité: jeudi 4 juin, 20 h, chez moi.",
		"Claire: Super! Bisous",
		"Gaston: Je vais avoir fini le jardin. Je vais pecher sur le lac.",
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
		`Gaston said: "j'ai vendu le bateau au voisin."`,
		`Gaston said: "Pour ma hanche, la chirurgie est le 12 mai a Laval"`,
		`Gaston said: "On a loué un chalet pour juillet"`,
		`Gaston said: "Réunion du comité: jeudi 4 juin, 20 h, chez moi."`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %s in:\n%s", want, joined)
		}
	}
	for _, small := range []string{"Salut", "merci", "Bravo", "Bisous", "contente", "chercher", "jardin", "pecher"} {
		if strings.Contains(joined, small) {
			t.Errorf("small talk %q kept in:\n%s", small, joined)
		}
	}
	for _, en := range []string{
		"I sold the boat to my neighbour last week",
		"Ma had her hip done in May",
		"The UN report is due on the 12th",
		"Let's do a la carte at the restaurant",
	} {
		if f := analyse(en, nil); f.foreign {
			t.Errorf("%q read as French", en)
		}
	}
	if f := analyse("mon genou ne monte plus l'escalier", nil); !f.foreign || !f.subject || f.themeHits[ThemeHealth] == 0 {
		t.Errorf("mon genou: not the speaker's health: %+v", f)
	}
	if f := analyse("la fête est samedi prochain chez Julie", nil); !f.foreignDate {
		t.Errorf("samedi prochain: no French date: %+v", f)
	}
}
