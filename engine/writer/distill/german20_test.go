package distill

import (
	"strings"
	"testing"
	"time"
)

// Round eighteen, part two, in German sentences written here (not from
// the labelled set): small talk that carries a number or reads like news,
// said in passing (germanchat.go).

// germanPassingChat is a German chat whose news must stay and whose
// passing remarks must go; each remark is one rule's shape.
func germanPassingChat() Session {
	return chat(saturday, "whatsapp", "de20a", "Pia",
		"Jonas Brandt: ich hab die stelle bei der stadtbibliothek, fang am 1. oktober an",
		"Pia: glückwunsch!! und wie weit ist das von dir?",
		"Jonas Brandt: 12 min mit dem rad statt 40 min bus",
		"Pia: die wohnung in gohlis hat übrigens 64 qm für 910 € warm",
		"Jonas Brandt: ganz fair für 64 qm im altbau",
		"Pia: und wie war das spiel gestern?",
		"Jonas Brandt: 31:27 gewonnen!!",
		"Pia: Das hier ist vom Sommerfest 2019 😍",
		"Jonas Brandt: ich hab noch 6 Gläser Quittengelee, kannst du dir am freitag abholen",
		"Pia: Tomaten im April setzen ist immer Glückssache.",
		"Jonas Brandt: ich zieh am 15. november nach kassel, die wohnung ist schon unterschrieben",
		"Pia: ich back dir zum abschied am 14. november den laktosefreien Käsekuchen, sonst isst du wieder nur Streusel",
		"Jonas Brandt: mama, die kaution ist eh schon bezahlt, 1.920 € am 2. oktober",
		"Pia: Carla hat gestern noch bis 2 Uhr getanzt, mit 84 Jahren",
		"Jonas Brandt: ich hab am 9. dezember den Nachtdienst von der Kollegin übernommen, die ist krank")
}

// A way's minutes, a judgment of an amount, a game's score, a photo's
// caption, an offer to fetch, a saying and an evening's dancing are small talk, and so is what
// would happen "sonst"; the news around them is kept.
func TestDistil_GermanNumbersInPassing(t *testing.T) {
	joined := keptTexts(t, germanPassingChat())
	for _, w := range []string{"stadtbibliothek", "64 qm für 910", "nach kassel", "Käsekuchen", "die kaution ist schon bezahlt", "Nachtdienst von der Kollegin"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"12 min", "ganz fair", "31:27", "Sommerfest", "Quittengelee", "Glückssache", "Streusel", "mama,", "getanzt", "die ist krank"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

// Each shape alone, and what it must not take: a time is no score, a
// sentence with someone in it is no saying, minutes beside another
// number are no way's length.
func TestGermanInPassing(t *testing.T) {
	for _, s := range []string{
		"12 min mit dem rad statt 40 min bus",
		"ganz fair für 64 qm im altbau",
		"31:27 gewonnen!!",
		"Das hier ist vom Sommerfest 2019",
		"ich hab noch 6 Gläser Quittengelee, kannst du dir am freitag abholen",
		"Tomaten im April setzen ist immer Glückssache.",
		"Carla hat gestern noch bis 2 Uhr getanzt, mit 84 Jahren",
	} {
		if !germanInPassing(s) {
			t.Errorf("%q not read as small talk", s)
		}
	}
	for _, s := range []string{
		"Training ist donnerstags um 19:30",
		"meine Schicht ist immer Frühdienst.",
		"der Zug fährt um 7 Uhr, 20 min bis zur Halle",
		"ich hab die stelle bei der stadtbibliothek, fang am 1. oktober an",
		"wir haben am 3. mai auf der hochzeit getanzt",
	} {
		if germanInPassing(s) {
			t.Errorf("%q read as small talk", s)
		}
	}
}

// A German session's summary says what the session opened with in its
// first sentence; the block it repeats keeps the rest.
func TestSummary_GermanFirstSentence(t *testing.T) {
	s := chat(saturday, "whatsapp", "de20b", "Pia",
		"Jonas Brandt: carla und ich heiraten!! am 14.08. in kassel, standesamt und dann feier im garten",
		"Pia: WAS. endlich!!!",
		"Jonas Brandt: und du sollst trauzeugin sein")
	sum := Summary(s)
	if !strings.Contains(sum.Text, "carla und ich heiraten") || strings.Contains(sum.Text, "feier im garten") {
		t.Errorf("summary %q: want its first sentence alone", sum.Text)
	}
	joined := keptTexts(t, s)
	if !strings.Contains(joined, "feier im garten") {
		t.Errorf("the block lost its rest:\n%s", joined)
	}
}

func TestGermanSummaryOpening(t *testing.T) {
	for in, want := range map[string]string{
		`Jonas said: "carla und ich heiraten! am 14.08. in kassel"`:                 `Jonas said: "carla und ich heiraten!"`,
		`Jonas said: "ja! am 14.08. in kassel"`:                                     `Jonas said: "ja! am 14.08. in kassel"`,
		`Mama said: "Wir feiern am 20. Juni im Lindenhof."`:                         `Mama said: "Wir feiern am 20. Juni im Lindenhof."`,
		"Tagebuch soll die Einträge aus dem Export lesen: jede Zeile ist ein Tag.":  "Tagebuch soll die Einträge aus dem Export lesen.",
		"`tb` liest `data/in.csv` und schreibt nach `out/tb.csv`. Drei Tests grün.": "`tb` liest `data/in.csv` und schreibt nach `out/tb.csv`.",
	} {
		if got := germanSummaryOpening(in); got != want {
			t.Errorf("germanSummaryOpening(%q) = %q, want %q", in, got, want)
		}
	}
}

// ", sonst …" says what would happen otherwise: it goes, unless it holds
// a number or the sentence would be left with under three words.
func TestGermanDropOtherwise(t *testing.T) {
	for in, want := range map[string]string{
		"ich bring den laktosefreien Käsekuchen mit, sonst ess ich wieder nur Streusel": "ich bring den laktosefreien Käsekuchen mit",
		"ich komm um 9, sonst wird's nach 12":                                           "ich komm um 9, sonst wird's nach 12",
		"bitte kommen, sonst ist alles weg":                                             "bitte kommen, sonst ist alles weg",
	} {
		if got := germanDropOtherwise(in); got != want {
			t.Errorf("germanDropOtherwise(%q) = %q, want %q", in, got, want)
		}
	}
}

// A call before the news and a modal particle inside it go; a condition
// keeps its "eh", and a sentence too short without them stays whole.
func TestGermanTrim(t *testing.T) {
	for in, want := range map[string]string{
		"mama, 640 kalt, mit nebenkosten 790 €":              "640 kalt, mit nebenkosten 790 €",
		"So, ab montag bin ich in Elternzeit!":               "ab montag bin ich in Elternzeit!",
		"chor ist mittwochs eh erst um 20 uhr":               "chor ist mittwochs erst um 20 uhr",
		"am 3. lass ich's halt ausfallen":                    "am 3. lass ich's ausfallen",
		"ich bleib übrigens zwei jahre in Bremen":            "ich bleib zwei jahre in Bremen",
		"Wenn das Auto eh kaputt ist, verkauf ich es im Mai": "Wenn das Auto eh kaputt ist, verkauf ich es im Mai",
		"Halt! am 3. mai":                                    "Halt! am 3. mai",
		"mama, bin da":                                       "mama, bin da",
	} {
		if got := germanTrim(in); got != want {
			t.Errorf("germanTrim(%q) = %q, want %q", in, got, want)
		}
	}
}

// A session with an assistant that opens on a reminder of what the
// assistant knows ("Du weißt ja: …") is summed up by its request.
func TestSummary_GermanReminderIsNoRequest(t *testing.T) {
	at := time.Date(2026, 3, 2, 19, 0, 0, 0, time.UTC)
	s := Session{Provider: "chatgpt", ID: "de20c", Turns: []Turn{
		{Ref: "chatgpt/de20c/t1", Role: RoleUser, Owner: true, Time: at, Content: "Du weißt ja: kurz, du-Form, keine Emojis."},
		{Ref: "chatgpt/de20c/t2", Role: RoleAssistant, Time: at, Content: "Klar."},
		{Ref: "chatgpt/de20c/t3", Role: RoleUser, Owner: true, Time: at, Content: "Ich fang am 4. Mai den Meisterkurs im Tischlerhandwerk an. Abends, 24 Monate, in Kassel."},
		{Ref: "chatgpt/de20c/t4", Role: RoleAssistant, Time: at, Content: "Glückwunsch! Soll ich dir einen Lernplan machen?"},
	}}
	sum := Summary(s)
	if !strings.Contains(sum.Text, "Meisterkurs") || strings.Contains(sum.Text, "du-Form") {
		t.Errorf("summary %q: want the request, not the reminder", sum.Text)
	}
}

// A trailing main clause of a demonstrative and its verb is an
// afterthought and goes; a relative clause (verb last), a short sentence
// and a clause with a number stay.
func TestGermanDropAfterthought(t *testing.T) {
	for in, want := range map[string]string{
		"ich musste den Nachtdienst von der Kollegin übernehmen, die ist krank":       "ich musste den Nachtdienst von der Kollegin übernehmen",
		"Das Menü nur zeigen, wenn der Cookie gesetzt ist, den setzt der Proxy.":      "Das Menü nur zeigen, wenn der Cookie gesetzt ist.",
		"Nie Branches auf dem Server löschen, die noch offen sind.":                   "Nie Branches auf dem Server löschen, die noch offen sind.",
		"mareike kann nicht, die ist dann hochschwanger":                              "mareike kann nicht, die ist dann hochschwanger",
		"Der Dienst läuft hinter dem Proxy der IT, der hat 2 Kerne und 4 GB Speicher": "Der Dienst läuft hinter dem Proxy der IT, der hat 2 Kerne und 4 GB Speicher",
	} {
		if got := germanDropAfterthought(in); got != want {
			t.Errorf("germanDropAfterthought(%q) = %q, want %q", in, got, want)
		}
	}
}

// In a German coding session the owner's rule keeps its fact and loses its
// afterthought.
func TestDistil_GermanRuleAfterthought(t *testing.T) {
	at := time.Date(2026, 5, 4, 18, 0, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "de20d", Project: "/home/pia/dienstplan", Turns: []Turn{
		{Ref: "claude-code/de20d/t1", Role: RoleUser, Owner: true, Time: at, Content: "dienstplan soll die Schichten aus dem Export als Kalender zeigen."},
		{Ref: "claude-code/de20d/t2", Role: RoleAssistant, Time: at, Content: "Ich lese zuerst den Export."},
		{Ref: "claude-code/de20d/t3", Role: RoleUser, Owner: true, Time: at, Content: "Das Menü nur zeigen, wenn der Header X-Rolle \"leitung\" ist, den setzt der Proxy."},
	}}
	facts, _ := DistilAll(s)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
	}
	joined := strings.Join(texts, "\n")
	if !strings.Contains(joined, "nur zeigen, wenn der Header") || strings.Contains(joined, "setzt der Proxy") {
		t.Errorf("want the rule without its afterthought:\n%s", joined)
	}
}
