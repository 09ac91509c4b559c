package distill

import (
	"strings"
	"testing"
)

// Round ten, in sentences written here (not from the labelled set): the
// shapes that read a language no list covers read any cased script, not
// Latin only.

// A chat in Cyrillic or Greek is read by the same shapes as one in
// Spanish: a sentence with a name, a number or a month is kept, quoted;
// a greeting, a reaction and a sentence with none of them are not.
func TestDistil_OtherScriptsReadByShape(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
		bad   []string
	}{
		{"ukrainian", []string{
			"Оксана: привіт! як ти?",
			"Mira: добре, дякую 🙂",
			"Оксана: новина: ми переїжджаємо до Одеси 3 березня, квартира на Дерибасівській 12",
			"Mira: ого!!! вітаю",
			"Оксана: весілля Андрія 14 серпня в Полтаві",
		}, []string{"3 березня", "14 серпня"}, []string{"привіт", "вітаю"}},
		{"greek", []string{
			"Ελένη: καλημέρα!",
			"Mira: καλημέρα 🙂",
			"Ελένη: ο Νίκος ξεκινά στη Θεσσαλονίκη στις 12 Μαΐου, 3 μέρες την εβδομάδα",
			"Mira: τέλεια",
		}, []string{"Θεσσαλονίκη"}, []string{"καλημέρα", "τέλεια"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			joined := keptTexts(t, chat(saturday, "telegram", "script-"+tc.name, "Mira", tc.lines...))
			for _, w := range tc.want {
				if !strings.Contains(joined, w) {
					t.Errorf("%q dropped from:\n%s", w, joined)
				}
			}
			for _, b := range tc.bad {
				if strings.Contains(joined, b) {
					t.Errorf("small talk %q kept in:\n%s", b, joined)
				}
			}
		})
	}
}

// otherScript is about letters, not a language: Cyrillic, Greek and
// Georgian are other scripts; Latin with accents and Chinese are not.
func TestOtherScript(t *testing.T) {
	for s, want := range map[string]bool{
		"ми взяли собаку з притулку":           true,
		"ο Νίκος ξεκινά στη Θεσσαλονίκη":       true,
		"მე ვცხოვრობ თბილისში":                 true,
		"Zosia urodziła się wczoraj o 23:40":   false,
		"我们下个月搬家":                              false,
		"opening is Saturday 6 June, перші 50": false,
		"PR approved з сьогодні":               false,
	} {
		if got := otherScript(s); got != want {
			t.Errorf("otherScript(%q) = %v, want %v", s, got, want)
		}
	}
}

// Ukrainian months in the cases a date takes, and weekdays next to their
// day, are a date's shape as Polish and Turkish ones are.
func TestUnreadMonth_Ukrainian(t *testing.T) {
	for _, w := range []string{"березня", "вересні", "листопад", "грудня", "жовтень", "bereznia", "travni"} {
		if !unreadMonth(w) {
			t.Errorf("unreadMonth(%q) = false", w)
		}
	}
	if !unreadDateIn("новосілля в суботу 10 жовтня") {
		t.Error("\"10 жовтня\" is not read as a date")
	}
}

// A pasted table's rows, items named by numbers a bot listed before, and
// a weekday a comma parts from a number are not news, in any script; the
// result of the vote and a dated weekday are.
func TestDistil_OtherScriptsSmallTalkShapes(t *testing.T) {
	s := chat(saturday, "discord", "script-chat", "Mira",
		"Tasks: ✅ petro claimed parts 4, 5, 6 · due 2025-07-31",
		"Ганна: словник, голосуємо до неділі:\nEN | варіант A | варіант B\nthe Mill | Млин | Млинок\nthe Ford | Брід | Перехід",
		"petro: частини 4 і 5 готові, 6-й наполовину",
		"Ганна: підсумок: the Mill — Млин, зустріч у суботу 12 липня у Полтаві",
		"petro: привіт, неділя, 18:10",
		"Ελένη: το 5 και το 6 έτοιμα",
	)
	joined := keptTexts(t, s)
	for _, bad := range []string{"Млинок", "наполовину", "18:10", "έτοιμα"} {
		if strings.Contains(joined, bad) {
			t.Errorf("%q kept in:\n%s", bad, joined)
		}
	}
	if !strings.Contains(joined, "12 липня") {
		t.Errorf("the dated meeting dropped from:\n%s", joined)
	}
}

// A date alone after its news ("ти одружуєшся. на Клер. 22 серпня") is
// kept though it is two words; and Ukrainian typed in Latin letters
// reads its months as the Cyrillic does.
func TestDistil_ShortDateAndTransliteratedMonth(t *testing.T) {
	s := chat(saturday, "viber", "script-date", "Mira",
		"Mira: ти переїжджаєш? до Харкова? коли",
		"Oksana: так. 14 серпня",
		"Petro: Likar skazav operatsiya 12 bereznia, ne khvylujsia",
	)
	joined := keptTexts(t, s)
	for _, w := range []string{"14 серпня", "12 bereznia"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
}

// A name is read in the case a sentence declines it into ("Іринка
// вступає…" after "вітаю Ірину!"), but not the second word of a
// holiday's or a title's name; a numbered list of rules under a label is
// kept by its label and first rule, whatever its script.
func TestDistil_InflectedNamesAndNumberedRules(t *testing.T) {
	s := chat(saturday, "viber", "script-names", "Mira",
		"Оксана: Іринка вступає на медичний у Львові!",
		"Mira: вітаю Ірину! хай дзвонить",
		"Оксана: чекаємо на Святий Великдень, це свято",
		"Оксана: Великодня всі чекають, а свята в нас",
		"Ганна: правила для всіх:\n1. лапки тільки «ялинки»\n2. пряма мова через тире\n3. імена не перекладаємо",
	)
	joined := keptTexts(t, s)
	for _, w := range []string{"Іринка вступає", "правила для всіх: лапки тільки"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
	if strings.Contains(joined, "свят") {
		t.Errorf("small talk kept in:\n%s", joined)
	}
	if d := (&distiller{s: chat(saturday, "x", "y", "Mira", "Ana: είδα τον Νίκο και την Κατερίνα")}); true {
		d.names = sessionNames(d.s)
		if !d.inflectedName("Κατερίνας") || d.inflectedName("Καλημέρα") {
			t.Error("a Greek name in another case (Κατερίνα → Κατερίνας) is not read as the same name, or a word is")
		}
	}
}

// A model's or a train's code ("A14", "743К") counts as a number, as
// digits do: with a name it is a fact's shape.
func TestDistil_CodeCountsAsNumber(t *testing.T) {
	s := chat(saturday, "slack", "script-code", "Mira",
		"Mira: нове правило: тестуємо на Pixel A14 перед релізом",
		"Ελένη: πάμε με το τρένο Intercity 743К",
	)
	joined := keptTexts(t, s)
	for _, w := range []string{"Pixel A14", "Intercity 743К"} {
		if !strings.Contains(joined, w) {
			t.Errorf("%q dropped from:\n%s", w, joined)
		}
	}
}

// An English sentence about someone whose name is in another script, or
// has accents, reads as one about a Latin name: RE2's \b and [A-Z] are
// ASCII, \p{Lu} is not.
func TestAnalyse_PreferenceOfANameInAnyScript(t *testing.T) {
	for _, s := range []string{"Тарас hates mushrooms", "Νίκος prefers green tea", "Inês loves the sea", "Karim hates olives"} {
		if !analyse(s, nil).preference {
			t.Errorf("%q: not read as a preference", s)
		}
	}
	if !inferenceRe.MatchString("So Остап will move") {
		t.Error("\"So Остап …\" is not read as an inference")
	}
}
