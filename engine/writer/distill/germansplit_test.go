package distill

import (
	"slices"
	"testing"
)

// German ordinals and numeric dates end in a full stop that ends no
// sentence (germansplit.go). The sentences are written for the test.
func TestSplit_GermanOrdinalsAndDates(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          []string
	}{
		{"a lower-case month after an ordinal", "wir ziehen am 3. april nach halle. freu mich",
			[]string{"wir ziehen am 3. april nach halle.", "freu mich"}},
		{"a counted noun after an ordinal", "die wohnung ist im 4. stock, ohne lift",
			[]string{"die wohnung ist im 4. stock, ohne lift"}},
		{"any word after a preposition and a day", "ich nehm mir den 14. frei. danke dir",
			[]string{"ich nehm mir den 14. frei.", "danke dir"}},
		{"a range of days", "urlaub vom 2. bis 9. oktober an der mosel",
			[]string{"urlaub vom 2. bis 9. oktober an der mosel"}},
		{"an ordinal before a capitalised noun", "Wir wohnen im 3. Stock, Oma feiert ihren 90. Geburtstag. Kommst du?",
			[]string{"Wir wohnen im 3. Stock, Oma feiert ihren 90. Geburtstag.", "Kommst du?"}},
		{"a numeric date goes on in lower case", "freitag 13.03. ist die abgabe, nicht später",
			[]string{"freitag 13.03. ist die abgabe, nicht später"}},
		{"a numeric date before a capital", "Dienste: 01.05. Meier, 02.05. Yilmaz. Danke!",
			[]string{"Dienste: 01.05. Meier, 02.05. Yilmaz.", "Danke!"}},
		{"z. B. is one abbreviation", "Dateien nach Woche benennen, z. B. kw07.csv. Sonst nichts.",
			[]string{"Dateien nach Woche benennen, z. B. kw07.csv.", "Sonst nichts."}},
		{"ca. and bzw.", "Es kostet ca. 40 Euro bzw. etwas mehr. Ok?",
			[]string{"Es kostet ca. 40 Euro bzw. etwas mehr.", "Ok?"}},
		{"a number ending a sentence still ends it", "Wir waren 12. Dann kam Ole.",
			[]string{"Wir waren 12.", "Dann kam Ole."}},
		{"an English sentence after a number", "We counted 12. then we left",
			[]string{"We counted 12.", "then we left"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, s := range split(tc.content).sentences {
				got = append(got, s.text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("split(%q) = %q, want %q", tc.content, got, tc.want)
			}
		})
	}
}
