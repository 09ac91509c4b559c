package distill

import (
	"strings"
	"testing"
)

// Small talk in the distiller's blocks, round three (chat18), in sentences
// written here (not from the labelled set).

// A pasted form whose rows repeat what the people named in them say
// themselves is a copy: the first-hand turns are kept, the form is not.
// A row nobody says first-hand, and numbers that match by chance in
// someone else's turn, stay.
func TestDistil_PastedFormRepeatingFirstHandIsDropped(t *testing.T) {
	lines := []string{
		"Joris: holiday sheet so far\nMicrosoft Forms · \"Winter leave\" · 4 answers\nAnouk B — 3–9 February, 14–18 April\nJoris K — 21–28 March\nMeike V — 11–15 May",
		"Joris: I'm off 21–28 March, my brother's wedding in Porto",
		"Anouk: I'm away 3–9 February skiing in Flaine, and 14–18 April for my mum's 60th",
		"Meike: mine is 11–15 May, Lisbon with the kids",
	}
	joined := keptTexts(t, chat(saturday, "slack", "leave18", "Joris", lines...))
	for _, row := range []string{"Microsoft Forms", "Anouk B —", "Joris K —", "Meike V —"} {
		if strings.Contains(joined, row) {
			t.Errorf("copied row %q kept in:\n%s", row, joined)
		}
	}
	for _, first := range []string{"Porto", "Flaine", "Lisbon"} {
		if !strings.Contains(joined, first) {
			t.Errorf("first-hand %q dropped:\n%s", first, joined)
		}
	}
}

func TestDistil_PastedRowSomeoneElseRepeatsIsKept(t *testing.T) {
	lines := []string{
		"Joris: holiday sheet so far\nMicrosoft Forms · \"Winter leave\" · 2 answers\nAnouk B — 3–9 February, 14–18 April\nJoris K — 21–28 March",
		"Meike: I'm off 3–9 February and 14–18 April as well, and 21–28 March for the move",
	}
	joined := keptTexts(t, chat(saturday, "slack", "leave18b", "Joris", lines...))
	for _, row := range []string{"Anouk B —"} {
		if !strings.Contains(joined, row) {
			t.Errorf("row %q dropped for numbers someone else repeats:\n%s", row, joined)
		}
	}
}

func TestNumberRuns(t *testing.T) {
	got := strings.Join(numberRuns("Kavya S — 09–24 Nov, ٩–١٣ Dec, 2026"), " ")
	if got != "9 24 13 2026" {
		t.Errorf("numberRuns = %q", got)
	}
	if w := firstNameWord("kavya.s"); w != "kavya" {
		t.Errorf("firstNameWord(kavya.s) = %q", w)
	}
	if w := firstNameWord("Jo"); w != "" {
		t.Errorf("firstNameWord(Jo) = %q", w)
	}
}

// A chat's summary opens with what someone wrote, not with a line of an
// app's card pasted in before it; a chat whose only facts are pasted
// still has a summary.
func TestSummary_OpensWithTypedFactNotPastedCard(t *testing.T) {
	card := "Hugo: bad news\nClearSky — Hay Bluff · Sat 5 Jul\nMoon: 91% (waxing gibbous, rises 18:40)\nCloud: low 0% · mid 20% · high 40%\nSeeing: ★★☆☆☆"
	s := chat(saturday, "telegram", "stars18", "Hugo",
		card,
		"Hugo: the moon will ruin it. moving the observing night to Sat 12 Jul, new moon is 24 Jul",
		"Maud: I'll bring the 10-inch Dobsonian and the red torches",
		"Hugo: we booked the Usk campsite, 2 pitches, for 12 and 13 July")
	sum := Summary(s)
	if strings.Contains(sum.Text, "ClearSky") || !strings.Contains(sum.Text, "12 Jul") {
		t.Errorf("summary opens with the pasted card: %q", sum.Text)
	}
	if sum = Summary(chat(saturday, "telegram", "stars18b", "Hugo", card)); sum.Text == "" && len(Distil(chat(saturday, "telegram", "stars18b", "Hugo", card))) > 0 {
		t.Errorf("no summary of a chat of one pasted card")
	}
}

// The short reply to a chat's opening line says how someone is; what the
// chat is about comes after it. A reply with news of its own, and the
// turn after an app's "joined" line, are kept.
func TestDistil_ReplyToOpenerIsSmallTalk(t *testing.T) {
	s := chat(saturday, "whatsapp", "opener18", "Tove",
		"Lise: still alive after the wedding weekend?",
		"Tove: barely. my aunt sent 4 kg of almond cake home with us, breakfast until Friday",
		"Lise: so, the flat: we sign the lease for Kongsgata 12 on 1 August",
		"Tove: amazing, I'll help you carry boxes on the 2nd")
	joined := keptTexts(t, s)
	if strings.Contains(joined, "almond cake") {
		t.Errorf("reply to the opener kept:\n%s", joined)
	}
	if !strings.Contains(joined, "Kongsgata") {
		t.Errorf("the chat's news dropped:\n%s", joined)
	}
	for _, c := range []struct{ name, opener, reply string }{
		{"news", "Lise: still alive after the wedding weekend?", "Tove: barely. btw I start at the Stavanger clinic on 4 August as head nurse"},
		{"event", "Lise: still alive after the wedding weekend?", "Tove: barely, Jonas and I got engaged on Saturday night at the wedding"},
		{"joined", "Lise: Lise joined the group", "Tove: welcome! Lise takes over the Stavanger clinic rota from 4 August"},
	} {
		joined := keptTexts(t, chat(saturday, "whatsapp", "opener18"+c.name, "Tove", c.opener, c.reply, "Lise: ok, talk soon"))
		if !strings.Contains(joined, "Stavanger") && !strings.Contains(joined, "engaged") {
			t.Errorf("%s: the reply's news dropped:\n%s", c.name, joined)
		}
	}
}

// A reply that calls out, with an exclamation, the name of who just told
// news answers that news; a name called out before one's own news, or
// with no news before it, is kept.
func TestDistil_CallingOutTheTellerIsSmallTalk(t *testing.T) {
	s := chat(saturday, "whatsapp", "callout18", "Ines",
		"Marek: I passed my driving test this morning, first try, 31 points out of 35",
		"Ines: MAREK!!! 🎉 31 points, I failed mine three times in Porto",
		"Marek: I'm buying a used Fiat Panda from my uncle next week for 2,500 euros")
	joined := keptTexts(t, s)
	if strings.Contains(joined, "three times") {
		t.Errorf("call-out reply kept:\n%s", joined)
	}
	for _, news := range []string{"driving test", "Panda"} {
		if !strings.Contains(joined, news) {
			t.Errorf("news %q dropped:\n%s", news, joined)
		}
	}
	own := keptTexts(t, chat(saturday, "whatsapp", "callout18b", "Ines",
		"Marek: I passed my driving test this morning, first try, 31 points out of 35",
		"Ines: Marek! btw I start at the Porto museum on 3 March as a conservator"))
	if !strings.Contains(own, "museum") {
		t.Errorf("own news after a call-out dropped:\n%s", own)
	}
}

// A short thank-you says how its writer feels; a thank-you that goes on
// to a date or a count tells something and is kept.
func TestDistil_ShortThanksIsSmallTalk(t *testing.T) {
	for _, c := range []struct{ reply, kept string }{
		{"Aiko: Thank you Bruna 💛 I'm learning! Obrigada!", ""},
		{"Aiko: дякую Бруно, I'm practising every evening!", ""},
		{"Aiko: thanks! I fly to Recife on 14 May", "Recife"},
		{"Aiko: thank you, my teacher Dona Natália at the Casa Brasil school says the same", "Natália"},
	} {
		joined := keptTexts(t, chat(saturday, "whatsapp", "thanks18", "Aiko",
			"Bruna: your Portuguese is getting so good, we're all proud of you at the school", c.reply))
		if c.kept == "" && strings.Contains(joined, "Aiko") {
			t.Errorf("short thanks %q kept:\n%s", c.reply, joined)
		}
		if c.kept != "" && !strings.Contains(joined, c.kept) {
			t.Errorf("thanks with news %q dropped:\n%s", c.reply, joined)
		}
	}
}

func TestThanksRe(t *testing.T) {
	for text, want := range map[string]bool{
		"Thank you Halyna": true, "🙏 thanks": true, "дякую!": true, "cảm ơn chị": true, "ありがとう": true,
		"Teşekkürler": true, "the thanksgiving menu": false, "Takeshi said": false,
	} {
		if got := thanksRe.MatchString(text); got != want {
			t.Errorf("thanksRe(%q) = %v", text, got)
		}
	}
}

// The app's "joined" line names the speaker's handle, which a writer
// may not keep as the speaker's name or id ("佐藤まり子", "U07MS0K2" for
// "mariko.s"): still no opener.
func TestDistil_JoinedLineByIDIsNoOpener(t *testing.T) {
	s := chat(saturday, "slack", "joined18", "佐藤まり子",
		"佐藤まり子: mariko.s has joined the channel",
		"Kenta: everyone, from today Mariko leads the firmware team, report to her",
		"佐藤まり子: thank you all, looking forward")
	s.Turns[0].SpeakerID, s.Turns[2].SpeakerID = "U07MS0K2", "U07MS0K2"
	if joined := keptTexts(t, s); !strings.Contains(joined, "firmware") {
		t.Errorf("the announcement after a joined line dropped:\n%s", joined)
	}
}

// The owner's own opener asks for news: its answer is kept.
func TestDistil_AnswerToOwnersOpenerIsKept(t *testing.T) {
	joined := keptTexts(t, chat(saturday, "whatsapp", "opener18o", "Tove",
		"Tove: hold on, which new job?!",
		"Lise: Head chef at Fjellstua in Geilo! From the autumn",
		"Tove: wow"))
	if !strings.Contains(joined, "Fjellstua") {
		t.Errorf("answer to the owner's opener dropped:\n%s", joined)
	}
}

func TestWordsAtMost(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want bool
	}{{"", 0, true}, {"  one  two ", 2, true}, {"one two three", 2, false}, {"дякую\tдуже\nдякую", 3, true}, {"a b c d e f g h i", 8, false}} {
		if got := wordsAtMost(c.s, c.n); got != c.want {
			t.Errorf("wordsAtMost(%q, %d) = %v", c.s, c.n, got)
		}
	}
}
