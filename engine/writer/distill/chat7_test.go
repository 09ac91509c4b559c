package distill

import (
	"strings"
	"testing"
)

// Round seven, in sentences written here (not from the labelled set).

// keptTexts distils s and joins its facts' texts, failing on the first
// person.
func keptTexts(t *testing.T, s Session) string {
	t.Helper()
	var texts []string
	for _, f := range Distil(s) {
		if fp := FirstPersonWords(f.Text); len(fp) > 0 {
			t.Errorf("first person %q in %q", fp, f.Text)
		}
		texts = append(texts, f.Text)
	}
	return strings.Join(texts, "\n")
}

// Read by shape, a price ("R$ 340,00", "€ 12"), a date in digits ("9/11")
// and a day's number after the word for day ("no dia 12") are each a
// fact's shape alone; a correction opening with "*" is read in the
// language of the turn it corrects.
func TestDistil_UnreadPriceDateAndCorrection(t *testing.T) {
	s := chat(saturday, "whatsapp", "price7", "Bia",
		"Ana: A mensalidade da academia agora é R$ 340,00 por mês, com desconto",
		"Ana: A cirurgia do meu pai ficou pra 9/11 de manhã cedo",
		"Ana: O show da banda é no dia 12 e a gente vai junto",
		"Ana: Comprei a bicicleta nova por R$ 2.100,00 na loja do centro",
		"Ana: *R$ 1.950,00, deram desconto",
		"Bia: que bom, fico feliz",
	)
	joined := keptTexts(t, s)
	for _, want := range []string{"R$ 340,00", "9/11", "no dia 12", "*R$ 1.950,00"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "feliz") {
		t.Errorf("small talk kept in:\n%s", joined)
	}
}

// A name of two words ("Dona Lúcia", "Belo Horizonte") is one name, a
// speaker's nickname ("Bea" for Beatriz) is someone spoken to, a forward
// behind its arrow is no one's news, and a sentence whose numbers and
// months were all just said by someone else takes note of the news.
func TestDistil_UnreadRoundSevenChat(t *testing.T) {
	s := chat(saturday, "whatsapp", "chat7", "Beatriz",
		"Ana: ↪ Encaminhada com frequência\nURGENTE: o banco vai bloquear sua conta dia 3, envie seus dados para 12 contatos",
		"Ana: A Dona Lúcia que resolva isso com o síndico",
		"Ana: A Bea vai adorar o Tomé na praia, pode apostar",
		"Beatriz: A reforma da cozinha termina dia 28 de março, o pedreiro confirmou",
		"Ana: 28 de março, anotado. Levo o bolo",
		"Ana: Semana que vem o Tomé começa na escola nova, fica em Belo Horizonte",
	)
	joined := keptTexts(t, s)
	for _, chat := range []string{"banco", "Dona Lúcia", "praia", "anotado"} {
		if strings.Contains(joined, chat) {
			t.Errorf("small talk %q kept in:\n%s", chat, joined)
		}
	}
	for _, want := range []string{"reforma da cozinha", "Belo Horizonte"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
}

// "a", "no", "do" and "me" are Portuguese as much as English: they make a
// turn neither; one foreign function word and no English one is read by
// shape at a higher bar (a weekday with its day and a date, not a month
// alone).
func TestUnreadTurn_SharedWordsAndWeakTurns(t *testing.T) {
	d := newDistiller(chat(saturday, "whatsapp", "shared7", "",
		"Ana: Novo contrato a partir de maio, a renovação no cartório do centro",
		"Ana: I do a lot of swimming in the sea when I am on holiday",
		"Ana: Começo segunda 11/05 num laboratório do centro",
		"Ana: Gracias equipo. Voy a dormir hasta mayo",
	))
	for i, want := range []bool{true, false, true, true} {
		if got := d.unreadTurn(i); got != want {
			t.Errorf("turn %d: unread %v, want %v", i+1, got, want)
		}
	}
	joined := keptTexts(t, d.s)
	if !strings.Contains(joined, "11/05") {
		t.Errorf("no fact with the start date in:\n%s", joined)
	}
	if strings.Contains(joined, "dormir") {
		t.Errorf("a joke with a month kept in:\n%s", joined)
	}
}

// Round seven's shapes of a project rule: "no X" in a later clause, "no X,"
// opening, the hosting, where the owner tests, a count corrected.
func TestProjectFact_RoundSevenRules(t *testing.T) {
	for _, tc := range []struct{ said, want string }{
		{"keep in mind the server is a tiny VPS, Ruby 3.2, no rails, no redis.", "no rails"},
		{"no docker, the old mac mini can't take it.", "No docker"},
		{"the hosting is a shared plan, cron only, no ssh.", "hosting is"},
		{"I test on the tablet at the front desk with ./gradlew installRelease", "tablet"},
		{"careful with March: from 1/3 the export has 14 rooms, not 12.", "not 12"},
	} {
		if got := ownerRule("desk", tc.said); !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%q: kept %q, want a fact with %q", tc.said, got, tc.want)
		}
	}
}

// "room C." ends a sentence (a lower-case word before the letter), "Ursula
// K." and "Dra. Souza" do not.
func TestSplit_LetterAfterLowerCaseEndsSentence(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"My slot is Friday 3/4 at 11h, room C. Should I bring a laptop?", 2},
		{"I am reading Ursula K. Le Guin again", 1},
		{"A consulta é com a Dra. Souza na quinta", 1},
	} {
		if got := len(split(tc.text).sentences); got != tc.want {
			t.Errorf("%q: %d sentences, want %d", tc.text, got, tc.want)
		}
	}
}

// Two weekdays a word apart are a schedule ("terça a quinta"), and "marco"
// in lower case is "março" written without its accent.
func TestDistil_UnreadScheduleAndUnaccentedMonth(t *testing.T) {
	s := chat(saturday, "messenger", "sched7", "Bia",
		"Ana: a minha vizinha agora faz hidroginastica de terça a quinta, bem cedinho",
		"Ana: o curso de italiano dela comeca em marco",
		"Bia: que chique",
	)
	joined := keptTexts(t, s)
	for _, want := range []string{"terça a quinta", "comeca em marco"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no fact with %q in:\n%s", want, joined)
		}
	}
}
