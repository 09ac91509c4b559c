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
