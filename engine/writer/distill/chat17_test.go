package distill

import (
	"strings"
	"testing"
)

// Small talk in the distiller's blocks, round two (chat17), in sentences
// written here (not from the labelled set).

// A reply that laughs or shows a face at another speaker's news reacts to
// it: the news is kept where it was told, the reaction is not, in any
// language. A laugh that turns to news of one's own ("btw …") and a life
// event are still news.
func TestDistil_LaughingReplyToNewsIsSmallTalk(t *testing.T) {
	lines := []string{
		"Rosa: the christening is on Sunday 12 October at 11, St Anne's, then lunch at the Anchor",
		"Ilse: I'll rehearse my speech 😅 we'll drive up on the 11th",
		"Rosa: my brother Marco starts his new job at the bakery on Monday 3 March",
		"Ilse: 🥹 my little cousin the baker",
		"Rosa: my sister Ana sold her first painting, 300 euros at the Gdynia fair",
		"Ilse: haha the family artist, I'll frame the receipt",
		"Rosa: Tomek moves to Gdańsk on 1 May for the shipyard job",
		"Ilse: haha. btw I'm leaving the agency, starting at Fjordline on 2 June as lead designer",
		"Rosa: Lena and Piet got engaged on Friday",
		"Ilse: 😂 we got engaged on Friday too, Karim asked at dinner",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "reactions", "Ilse", lines...))
	for _, b := range []string{"speech", "11th", "little cousin", "frame"} {
		if strings.Contains(joined, b) {
			t.Errorf("reaction %q kept in:\n%s", b, joined)
		}
	}
	for _, news := range []string{"christening", "bakery", "300 euros", "Fjordline", "Karim"} {
		if !strings.Contains(joined, news) {
			t.Errorf("news %q dropped:\n%s", news, joined)
		}
	}
}

// A face or a laugh with no news before it, or after one's own turn, is
// no reaction to anyone's news.
func TestDistil_LaughWithoutNewsBeforeIsKept(t *testing.T) {
	lines := []string{
		"Rosa: how was your week?",
		"Ilse: long 😅 I start at the Fjordline office on Monday 2 June as lead designer",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "noreaction", "Ilse", lines...))
	if !strings.Contains(joined, "Fjordline") {
		t.Errorf("news after a face dropped:\n%s", joined)
	}
}

func TestLaughs(t *testing.T) {
	for text, want := range map[string]bool{
		"haha ok": true, "lol we go Sunday then": true, "ok 😬": true, "ложі 😬 ок": true, "better 🤧": true,
		"thank youuu 🥹": true, "HAHAHA": true, "the harbour is lovely": false, "Ha Long Bay in May": false,
		"🎉 congrats": false, "👍": false, "the hehe bird": true, "shahar and hemant": false,
	} {
		if got := laughs(text); got != want {
			t.Errorf("laughs(%q) = %v, want %v", text, got, want)
		}
	}
}

// A newcomer's answer to a welcome that names them is pleasantries: who
// they are is in the welcome. A welcome to someone else, and a newcomer
// who turns to news of their own, are answered with news.
func TestDistil_AnswerToWelcomeIsSmallTalk(t *testing.T) {
	lines := []string{
		"Oskar: please welcome Greta, who joins us on Monday as our new QA lead",
		"Pia: welcome Greta! you're Leon's old flatmate, right?",
		"Greta: yes! I tried the crossword club at his place and stayed for the coffee",
		"Oskar: bienvenue Mathis, ravi de t'avoir",
		"Greta: I'm off 14–18 October for my sister's wedding in Porto",
		"Pia: welcome Jonas 👋",
		"Jonas: thanks all. btw I'm moving to Aarhus on 1 March, so I'm remote from then",
	}
	joined := keptTexts(t, chat(saturday, "slack", "welcomes", "Pia", lines...))
	if strings.Contains(joined, "crossword") {
		t.Errorf("an answer to a welcome kept:\n%s", joined)
	}
	for _, news := range []string{"QA lead", "Porto", "Aarhus"} {
		if !strings.Contains(joined, news) {
			t.Errorf("news %q dropped:\n%s", news, joined)
		}
	}
}

// "X it is" picks among what someone else offered; "here it is" hands
// something over.
func TestPicked(t *testing.T) {
	for text, want := range map[string]bool{
		"Dubai it is": true, "Fine, the Tuesday it is!": true, "slow walks it is.": true, "June 5 it is": true,
		"Here it is": false, "the flat is small but it is ours": false, "her new flat near the harbour, it is": false,
	} {
		if got := picked(analyse(text, nil)); got != want {
			t.Errorf("picked(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestDistil_PickIsSmallTalk(t *testing.T) {
	lines := []string{
		"Rosa: my nephew Karim collects the Lego city sets, he has 14 but not Dubai yet",
		"Ilse: Dubai it is",
		"Rosa: Lisbon or Porto for the May weekend?",
		"Ilse: fine, Porto it is!",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "picks", "Ilse", lines...))
	if strings.Contains(joined, "it is") {
		t.Errorf("a pick kept:\n%s", joined)
	}
	if !strings.Contains(joined, "14") {
		t.Errorf("the news was dropped:\n%s", joined)
	}
}

// A short laugh after a long message that asks nothing reacts to it, even
// when the rules keep nothing of the message; after a question it answers.
func TestDistil_ShortLaughAfterLongMessageIsSmallTalk(t *testing.T) {
	lines := []string{
		"Rosa: du vet hvordan det er hos oss, alle snakker i munnen på hverandre og ingen hører etter",
		"Ilse: haha ok, Håkon and I will bring earplugs on Saturday 14 June",
		"Rosa: Kommer dere til jul i år, og tar dere toget fra Bergen som vanlig eller flyr dere?",
		"Ilse: Yes, 23 December, the train from Bergen, 7 hours 🙈",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "longmsg", "Ilse", lines...))
	if strings.Contains(joined, "earplugs") {
		t.Errorf("a laugh after a long message kept:\n%s", joined)
	}
	if !strings.Contains(joined, "23 December") {
		t.Errorf("an answer to a question dropped:\n%s", joined)
	}
}
