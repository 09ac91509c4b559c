package whatsapp

import (
	"testing"
)

func TestParseHeader(t *testing.T) {
	n := "\u202f"
	cases := []struct {
		line           string
		ok             bool
		date           [3]int
		hour, min, sec int
		rest           string
	}{
		{"[07.06.23, 20:28:13] Jonas: hi", true, [3]int{7, 6, 23}, 20, 28, 13, "Jonas: hi"},
		{"\u200e[6/7/23, 8:28:13" + n + "PM] Sam: \u200eimage omitted", true, [3]int{6, 7, 23}, 20, 28, 13, "Sam: \u200eimage omitted"},
		{"[6/7/23, 12:05:00 AM] Sam: midnight", true, [3]int{6, 7, 23}, 0, 5, 0, "Sam: midnight"},
		{"12/31/23, 9:15 PM - Ana: x", true, [3]int{12, 31, 23}, 21, 15, 0, "Ana: x"},
		{"12/31/23, 12:15" + n + "PM - Ana: x", true, [3]int{12, 31, 23}, 12, 15, 0, "Ana: x"},
		{"23/06/2018, 01:55 p.m. - Loris: one", true, [3]int{23, 6, 2018}, 13, 55, 0, "Loris: one"},
		{"[3/6/18 1:55:00 p. m.] a: m", true, [3]int{3, 6, 18}, 13, 55, 0, "a: m"},
		{"31.12.23, 21:15 - Bob left", true, [3]int{31, 12, 23}, 21, 15, 0, "Bob left"},
		{"31/12/2023 à 21:15 - Hugo: <Médias omis>", true, [3]int{31, 12, 2023}, 21, 15, 0, "Hugo: <Médias omis>"},
		{"2023-12-31 21:15 - Elsa: hej", true, [3]int{2023, 12, 31}, 21, 15, 0, "Elsa: hej"},
		{"[2018/06/13, 21:25:15] a: m", true, [3]int{2018, 6, 13}, 21, 25, 15, "a: m"},
		{"13. 6. 2018. 21:25:15 - a: m", true, [3]int{13, 6, 2018}, 21, 25, 15, "a: m"},
		{"13.6.2018 klo 21.25.15 - a: m", true, [3]int{13, 6, 2018}, 21, 25, 15, "a: m"},
		{"\u200f[31/12/2023, 21:15:00] أحمد: مرحبا", true, [3]int{31, 12, 2023}, 21, 15, 0, "أحمد: مرحبا"},
		// Not headers.
		{"2023. 12. 31. 오후 9:15 - a: m", false, [3]int{}, 0, 0, 0, ""}, // Korean afternoon marker: refused, not misread
		{"12/31/23, 13:15 PM - a: m", false, [3]int{}, 0, 0, 0, ""},
		{"12/31/23, 9:75 - a: m", false, [3]int{}, 0, 0, 0, ""},
		{"12/31-23, 9:15 - a: m", false, [3]int{}, 0, 0, 0, ""},
		{"12/31/23, 9:15 a: m", false, [3]int{}, 0, 0, 0, ""},
		{"[12/31/23, 9:15 - a: m", false, [3]int{}, 0, 0, 0, ""},
		{"12345/1/1, 9:15 - a: m", false, [3]int{}, 0, 0, 0, ""},
		{"[1, 2, 3]", false, [3]int{}, 0, 0, 0, ""},
		{"2024-01-02T10:00:00Z INFO", false, [3]int{}, 0, 0, 0, ""},
		{"", false, [3]int{}, 0, 0, 0, ""},
	}
	for _, c := range cases {
		h, rest, ok := parseHeader([]byte(c.line))
		if ok != c.ok {
			t.Errorf("parseHeader(%q) ok = %v", c.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if h.date != c.date || h.hour != c.hour || h.minute != c.min || h.second != c.sec || string(rest) != c.rest {
			t.Errorf("parseHeader(%q) = %v %02d:%02d:%02d %q", c.line, h.date, h.hour, h.minute, h.second, rest)
		}
	}
}

func TestGuessOrder(t *testing.T) {
	st := func(lines ...string) ([]stamp, shape) {
		var out []stamp
		var s shape
		for i, l := range lines {
			h, _, ok := parseHeader([]byte(l + " - a: x"))
			if !ok {
				t.Fatalf("not a header: %q", l)
			}
			s = h.shape
			out = append(out, newStamp(i+1, h))
		}
		return out, s
	}
	cases := []struct {
		name  string
		lines []string
		want  DateOrder
	}{
		{"day above 12", []string{"1/2/23, 10:00", "13/2/23, 10:00"}, DayMonthYear},
		{"month-first day above 12", []string{"1/2/23, 10:00", "1/13/23, 10:00"}, MonthDayYear},
		{"year first", []string{"2023/1/2, 10:00"}, YearMonthDay},
		{"only the order tells: month-first", []string{"6/7/23, 10:00", "6/9/23, 10:00", "7/1/23, 10:00"}, MonthDayYear},
		{"only the order tells: day-first", []string{"6/7/23, 10:00", "9/7/23, 10:00", "1/8/23, 10:00"}, DayMonthYear},
		{"habit: slash and AM/PM is US", []string{"1/2/23, 10:00 AM"}, MonthDayYear},
		{"habit: slash and 24 h is day-first", []string{"1/2/23, 10:00"}, DayMonthYear},
		{"habit: dots are day-first", []string{"1.2.23, 10:00 AM"}, DayMonthYear},
	}
	for _, c := range cases {
		stamps, s := st(c.lines...)
		got, err := guessOrder(stamps, s)
		if err != nil || got != c.want {
			t.Errorf("%s: guessOrder = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if _, err := guessOrder(must(st("13/1/23, 10:00", "1/13/23, 10:00")), shape{}); err == nil {
		t.Error("mixed orders: no error")
	}
}

func must(s []stamp, _ shape) []stamp { return s }

func TestCleanName(t *testing.T) {
	cases := map[string]string{
		"Dana Whitfield":                     "Dana Whitfield",
		"~\u202fAnna":                        "Anna",
		"~ Anna":                             "Anna",
		"\u202a+1 (415) 555-0134\u202c":      "+1 (415) 555-0134",
		"\u200eJonas Becker":                 "Jonas Becker",
		" Lee\u00a0":                         "Lee",
		"Anne\u202fMarie":                    "Anne\u202fMarie", // inside a name it stays
		"Tilde~Inside":                       "Tilde~Inside",
		"\u2068Zoë\u2069":                    "Zoë",
		"~\u202f\u202a+44 7700 900123\u202c": "+44 7700 900123",
	}
	for in, want := range cases {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestClassify(t *testing.T) {
	l := "\u200e"
	cases := []struct {
		body    string
		marked  bool
		content string
		reason  string
	}{
		{"hello", false, "hello", ""},
		{"hello\nworld", false, "hello\nworld", ""},
		{"", false, "", ReasonEmpty},
		{"<Media omitted>", false, "[media]", ""},
		{"<Medien ausgeschlossen>", false, "[media]", ""},
		{"IMG-20231228-WA0007.jpg (file attached)\nThe view", false, "[photo: The view]", ""},
		{"VID-20231228-WA0001.mp4 (file attached)", false, "[video]", ""},
		{"Alice Smith.vcf (file attached)", false, "[contact Alice Smith]", ""},
		{"Plan.docx (Datei angehängt)", false, "[file Plan.docx]", ""},
		{"image omitted", true, "[photo]", ""},
		{"sticker omitted", true, "[sticker]", ""},
		{"Tickets.pdf • " + l + "2 pages " + l + "document omitted", true, "[file Tickets.pdf]", ""},
		{"<attached: 00000012-PHOTO-2023-06-07-20-28-13.jpg>", true, "[photo]", ""},
		{"<attached: 00000013-Budget 2024.xlsx>", true, "[file Budget 2024.xlsx]", ""},
		{"<attached: 00000014-Jane Roe.vcf>", true, "[contact Jane Roe]", ""},
		{"This message was deleted", false, "", ReasonDeleted},
		{"This message was deleted.", true, "", ReasonDeleted},
		{"This message was deleted by admin Dana.", true, "", ReasonDeleted},
		{"Se eliminó este mensaje.", false, "", ReasonDeleted},
		{"Waiting for this message. Check your phone.", false, "", ReasonWaiting},
		{"fixed " + l + "<This message was edited>", false, "fixed", ""},
		{"fixed <Diese Nachricht wurde bearbeitet>", false, "fixed", ""},
		{"location: https://maps.google.com/?q=1.5,2.5", false, "[location https://maps.google.com/?q=1.5,2.5]", ""},
		{"Standort: https://maps.google.com/?q=1.5,2.5", false, "[location https://maps.google.com/?q=1.5,2.5]", ""},
		{"see https://maps.google.com/?q=1.5,2.5", false, "see https://maps.google.com/?q=1.5,2.5", ""},
		{"live location shared", false, "[live location]", ""},
		{"POLL:\nQ?\nOPTION: A (12 votes)\nOPTION: B (1 vote)\n", false, "POLL:\nQ?\nOPTION: A\nOPTION: B", ""},
		{"Missed voice call", true, "", ReasonCall},
		{"Messages and calls are end-to-end encrypted.", true, "", ReasonEncryptionNotice},
		{"Your security code with Sam changed.", true, "", ReasonSystem},
		{"Dana added Marcus", true, "", ReasonJoin},
		{"Dana added Marcus", false, "Dana added Marcus", ""},
		{"<3", false, "<3", ""},
	}
	for _, c := range cases {
		content, reason := classify(c.body, c.marked)
		if content != c.content || reason != c.reason {
			t.Errorf("classify(%q, %v) = %q, %q; want %q, %q", c.body, c.marked, content, reason, c.content, c.reason)
		}
	}
}

func TestTitleFrom(t *testing.T) {
	cases := map[string]string{
		`Dana created group "Ski trip"`:                        "Ski trip",
		"Dana created group “Ski trip”":                        "Ski trip",
		`Marcus changed the subject from "A" to "Ski: Tahoe"`:  "Ski: Tahoe",
		"Jonas Becker hat die Gruppe „Kletterhalle“ erstellt.": "Kletterhalle",
		`Dana said "hi"`: "",
	}
	for in, want := range cases {
		got, ok := titleFrom(in)
		if got != want || ok != (want != "") {
			t.Errorf("titleFrom(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
