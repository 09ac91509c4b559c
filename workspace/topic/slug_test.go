package topic

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A name in any cased script gets a file name of its own letters, and a
// long one is cut at a letter, never inside one.
func TestSlug_OtherScripts(t *testing.T) {
	for in, want := range map[string]string{
		"Марічка Левицька":   "марічка-левицька",
		"Ελένη Παπαδοπούλου": "ελένη-παπαδοπούλου",
		"Соля":               "соля",
		"Zoë O'Brien":        "zoë-o-brien",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
	long := Slug(strings.Repeat("Гнатюк ", 12))
	if !utf8.ValidString(long) || len(long) > 60 || strings.HasSuffix(long, "-") || long == "" {
		t.Errorf("long Cyrillic slug %q: invalid, too long or ends in a dash", long)
	}
	for _, s := range []string{"Соляний сад · переклад перекладачів волонтерів Львова", "αβγδεζηθικλμνξοπρστυφχψω αβγδεζηθικλμνξοπρστυφχψω"} {
		if got := Slug(s); !utf8.ValidString(got) {
			t.Errorf("Slug(%q) = %q is not valid UTF-8", s, got)
		}
	}
}
