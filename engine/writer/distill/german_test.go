package distill

import (
	"strings"
	"testing"
	"time"
)

// Round eighteen, in German sentences written here (not from the labelled
// set): German news told in lower case without a number, German nouns
// that are not names, a project's rules said as German imperatives, the
// assistant's "Zusammenfassung:", and a turn's quotes as one block
// (german.go, germannews.go, pastedlists.go).

// Lower-case news with no number is kept; a promise in passing, care for
// the listener and a reply echoing the news are not.
func TestDistil_GermanNewsWithoutNumbers(t *testing.T) {
	lines := []string{
		"Jonas Brandt: hey, rate mal",
		"Pia: was denn",
		"Jonas Brandt: ich hab die stelle bei der stadtbibliothek!! fang im herbst an",
		"Pia: wahnsinn, glückwunsch",
		"Jonas Brandt: und du sollst patentante von ida werden, sagt carla",
		"Pia: ich bring euch am sonntag kuchen mit",
		"Jonas Brandt: ich hab ein Fahrrad gekauft, ein altes Peugeot",
		"Pia: du mit fahrrad, ich lach mich kaputt",
		"Jonas Brandt: du hast echt genug um die ohren",
		"Pia: ich bring dir morgen die umzugskartons vorbei",
		"Pia: und jetzt ganz offiziell: willst du mein trauzeuge sein?",
		"Jonas Brandt: du hast genug mit deiner neuen wohnung zu tun",
	}
	joined := keptTexts(t, chat(saturday, "whatsapp", "de18a", "Pia", lines...))
	for _, w := range []string{"die stelle bei der stadtbibliothek", "patentante", "Fahrrad gekauft", "mein trauzeuge sein"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	for _, b := range []string{"kuchen mit", "lach mich kaputt", "um die ohren", "rate mal", "umzugskartons", "neuen wohnung"} {
		if strings.Contains(joined, b) {
			t.Errorf("small talk %q kept in:\n%s", b, joined)
		}
	}
}

// German capitalises its nouns: after an article, an article and an
// adjective, with a noun's ending or written in lower case elsewhere, a
// capitalised word is no name, and a noun once ("ein Boot") is one
// everywhere ("mit Boot"); a name stays one.
func TestGermanNouns(t *testing.T) {
	s := chat(saturday, "whatsapp", "de18b", "Pia",
		"Jonas Brandt: wir waren mit Carla im Kino, der Film war lang",
		"Pia: und die Vorstellung? und das kino?",
		"Jonas Brandt: die Vorstellung im großen Saal war voll, nach der Pause sind wir gegangen",
		"Pia: ich hab übrigens ein Boot gekauft",
		"Jonas Brandt: Pia mit Boot, das wird was")
	names := sessionNames(s)
	for _, noun := range []string{"Kino", "Film", "Vorstellung", "Saal", "Pause", "Boot"} {
		if names[noun] {
			t.Errorf("%q read as a name", noun)
		}
	}
	if !names["Carla"] {
		t.Errorf("Carla not read as a name: %v", names)
	}
	en := chat(saturday, "whatsapp", "en18b", "Pia", "Jonas: we saw Carla at the Film Forum", "Pia: the film was long")
	if n := sessionNames(en); !n["Film"] || !n["Carla"] {
		t.Errorf("an English session's capitals are names: %v", n)
	}
}

// A German owner's rules in a coding session are conventions, and the
// assistant's "Zusammenfassung:" is the outcome.
func TestDistil_GermanCodingSession(t *testing.T) {
	at := time.Date(2026, 4, 14, 18, 0, 0, 0, time.UTC)
	s := Session{Provider: "claude-code", ID: "de18c", Project: "/home/pia/vereinskasse", Turns: []Turn{
		{Ref: "claude-code/de18c/t1", Role: RoleUser, Owner: true, Time: at, Content: "vereinskasse soll die Mitgliedsbeiträge aus der Bank-CSV verbuchen."},
		{Ref: "claude-code/de18c/t2", Role: RoleAssistant, Time: at, Content: "Ich lese zuerst die Beispieldatei."},
		{Ref: "claude-code/de18c/t3", Role: RoleUser, Owner: true, Time: at, Content: "keine neuen Pakete, nur was Python mitbringt."},
		{Ref: "claude-code/de18c/t4", Role: RoleAssistant, Time: at, Content: "Verstanden, nur die Standardbibliothek."},
		{Ref: "claude-code/de18c/t5", Role: RoleUser, Owner: true, Time: at, Content: "Beträge immer in Cent speichern, nie als Kommazahl."},
		{Ref: "claude-code/de18c/t6", Role: RoleAssistant, Time: at, Content: "Zusammenfassung: `kasse.py` verbucht die Beiträge aus `bank.csv` in Cent, nur mit der Standardbibliothek; drei Tests grün, committet als 5c1d2e0."},
	}}
	facts, sum := DistilAll(s)
	var texts []string
	for _, f := range facts {
		texts = append(texts, f.Text)
	}
	joined := strings.Join(texts, "\n")
	for _, w := range []string{"eine neuen Pakete", "immer in Cent", "kasse.py"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	if !strings.Contains(sum.Text, "kasse.py") {
		t.Errorf("summary %q does not report the outcome", sum.Text)
	}
}

// A pasted rota is one block citing its turn, not a block a line.
func TestDistil_PastedListOneBlock(t *testing.T) {
	rota := "Hier ist der Putzplan für das Treppenhaus, jeweils samstags, bitte mit dem Nachbarn tauschen, wenn es nicht passt:\n" +
		"07.03. Erdgeschoss links\n14.03. Erdgeschoss rechts\n21.03. 1. Stock links\n" +
		"28.03. 1. Stock rechts\n04.04. 2. Stock links\n11.04. 2. Stock rechts"
	s := chat(saturday, "whatsapp", "de18d", "Pia",
		"Hausverwaltung Kramer: Liebe Mieter, ab März gibt es einen neuen Plan für das Treppenhaus, und wir bitten alle um Mithilfe.",
		"Hausverwaltung Kramer: "+rota,
		"Pia: danke, ich hab mir den 21. schon eingetragen und bin dann auch da",
		"Hausverwaltung Kramer: Das ist nett von Ihnen, und wenn es Fragen gibt, bin ich im Büro.",
		"Pia: alles klar, dann bis zum nächsten mal")
	facts := Distil(s)
	var rotaBlocks []Fact
	for _, f := range facts {
		if strings.Contains(f.Text, "Stock") {
			rotaBlocks = append(rotaBlocks, f)
		}
	}
	if len(rotaBlocks) != 1 {
		t.Fatalf("the rota gave %d blocks, want 1: %+v", len(rotaBlocks), facts)
	}
	for _, w := range []string{"07.03. Erdgeschoss links", "11.04. 2. Stock rechts"} {
		if !strings.Contains(rotaBlocks[0].Text, w) {
			t.Errorf("%q missing from %q", w, rotaBlocks[0].Text)
		}
	}
}

// The shapes of German small talk and of the owner's own day, each with
// news or a rule of the same shape that stays.
func TestGermanChatShapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"a promise in passing", germanPromise("ich bring dir morgen die umzugskartons vorbei"), true},
		{"a promise with a date", germanPromise("ich komm am 14. mit dem zug"), false},
		{"a promise about what someone eats", germanPromise("ich bring den glutenfreien kuchen mit, wegen der allergie"), false},
		{"a promise of a life event", germanPromise("wir heiraten im standesamt, ich sag dir bescheid"), false},
		{"care for the listener", germanToListener("du hast genug mit deiner neuen wohnung zu tun"), true},
		{"news told to the listener", germanToListener("du sollst trauzeuge sein"), false},
		{"the listener and the speaker", germanToListener("du und ich fahren nach rostock"), false},
		{"the assistant's German summary label", summaryLabelRe.MatchString("Zusammenfassung: drei Tests grün."), true},
		{"a request to the assistant", germanRequestRe.MatchString("Mach mir eine Liste für den Umzug"), true},
		{"a request after a comma", germanRequestRe.MatchString("ich bin unterwegs, schreib mir bitte"), true},
		{"no request", germanRequestRe.MatchString("ich mach den Umzug am Samstag"), false},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
