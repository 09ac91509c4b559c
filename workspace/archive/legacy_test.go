package archive

import (
	"testing"
	"time"
)

func TestParseLegacy_Records(t *testing.T) {
	data := "# Telegram group\n" +
		"some preface\n" +
		"[2026-08-10T12:00:00Z] user: [B (u456)] [张三 (u123)] 密钥可以给他\n" +
		"second line  \r\n" +
		"[not a time] user: still body\n" +
		"\n" +
		"<a id=\"source-0badc0de\"></a>\n" +
		"<!-- source-id:openprogram/group/m4 -->\n" +
		"<!-- speaker-id:u9 -->\n" +
		"[2026-08-10T14:30:00+02:00] user: [C (u9)] framed, so no hint\n" +
		"[2026-08-10T12:31:00.250Z] assistant: [D (u1)] not a user\n" +
		"<!-- source-id:openprogram/group/m6 -->\r\n" +
		"[2026-08-10T12:32:00Z] B (u456): labelled\n" +
		"<a id=\"source-12345678\"></a>\n" +
		"\n" +
		"[2026-08-10T12:33:00Z] user: [Bob (work) (u7)] hint with parens\n" +
		"[2026-08-10T12:34:00Z] user: \n" +
		"[2026-08-10T12:35:00Z] user: last\n\n"
	want := []LegacyRecord{
		{Time: t0, Label: "user", Line: 3, Content: "[B (u456)] [张三 (u123)] 密钥可以给他\nsecond line  \r\n[not a time] user: still body\n",
			HasHint: true, HintDisplay: "B", HintID: "u456"},
		{SourceID: "openprogram/group/m4", Anchor: "source-0badc0de", Framed: true, Time: t0.Add(30 * time.Minute), Label: "user", Line: 10,
			Content: "[C (u9)] framed, so no hint"},
		{Time: t0.Add(31*time.Minute + 250*time.Millisecond), Label: "assistant", Line: 11, Content: "[D (u1)] not a user"},
		{SourceID: "openprogram/group/m6", Framed: true, Time: t0.Add(32 * time.Minute), Label: "B (u456)", Line: 13,
			Content: "labelled\n<a id=\"source-12345678\"></a>\n"},
		{Time: t0.Add(33 * time.Minute), Label: "user", Line: 16, Content: "[Bob (work) (u7)] hint with parens",
			HasHint: true, HintDisplay: "Bob (work)", HintID: "u7"},
		{Time: t0.Add(34 * time.Minute), Label: "user", Line: 17, Content: ""},
		{Time: t0.Add(35 * time.Minute), Label: "user", Line: 18, Content: "last\n"},
	}
	got := ParseLegacy([]byte(data))
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !g.Time.Equal(w.Time) || g.Time.Location() != time.UTC {
			t.Errorf("record %d time %v, want %v UTC", i, g.Time, w.Time)
		}
		g.Time, w.Time = time.Time{}, time.Time{}
		if g != w {
			t.Errorf("record %d =\n%+v\nwant\n%+v", i, g, w)
		}
	}
}

func TestParseLegacy_Hints(t *testing.T) {
	tests := []struct {
		name, body      string
		label           string
		ok              bool
		display, hintID string
	}{
		{"plain", "[B (u456)] hi", "user", true, "B", "u456"},
		{"nothing after", "[B (u456)]", "user", true, "B", "u456"},
		{"CRLF", "[B (u456)]\r\nmore", "user", true, "B", "u456"},
		{"not at start", " [B (u456)] hi", "user", false, "", ""},
		{"id only", "[u456] hi", "user", false, "", ""},
		{"empty display", "[ (u456)] hi", "user", false, "", ""},
		{"empty id", "[B ()] hi", "user", false, "", ""},
		{"no closing bracket", "[B (u456) hi", "user", false, "", ""},
		{"hint on second line", "hi\n[B (u456)]", "user", false, "", ""},
		{"label User", "[B (u456)] hi", "User", false, "", ""},
		{"label assistant", "[B (u456)] hi", "assistant", false, "", ""},
		{"label with speaker", "[B (u456)] hi", "B (u456)", false, "", ""},
	}
	for _, tt := range tests {
		got := ParseLegacy([]byte("[2026-08-10T12:00:00Z] " + tt.label + ": " + tt.body + "\n"))
		if len(got) != 1 {
			t.Fatalf("%s: %d records", tt.name, len(got))
		}
		r := got[0]
		if r.HasHint != tt.ok || r.HintDisplay != tt.display || r.HintID != tt.hintID {
			t.Errorf("%s: hint %v %q %q, want %v %q %q", tt.name, r.HasHint, r.HintDisplay, r.HintID, tt.ok, tt.display, tt.hintID)
		}
	}
}

func TestParseLegacy_Headers(t *testing.T) {
	tests := []struct {
		name, line string
		header     bool
	}{
		{"UTC", "[2026-08-10T12:00:00Z] user: x", true},
		{"offset", "[2026-08-10T12:00:00-07:00] user: x", true},
		{"fraction", "[2026-08-10T12:00:00.123456789Z] user: x", true},
		{"empty content", "[2026-08-10T12:00:00Z] user: ", true},
		{"label with colon-free text", "[2026-08-10T12:00:00Z] B (u456): x", true},
		{"no colon-space", "[2026-08-10T12:00:00Z] user:x", false},
		{"no trailing space", "[2026-08-10T12:00:00Z] user:", false},
		{"empty label", "[2026-08-10T12:00:00Z] : x", false},
		{"date only", "[2026-08-10] user: x", false},
		{"no space after bracket", "[2026-08-10T12:00:00Z]user: x", false},
		{"indented", " [2026-08-10T12:00:00Z] user: x", false},
		{"not a time", "[B (u456)] user: x", false},
	}
	for _, tt := range tests {
		got := ParseLegacy([]byte("preface\n" + tt.line + "\n"))
		if (len(got) == 1) != tt.header {
			t.Errorf("%s: %q gave %d records, header=%v", tt.name, tt.line, len(got), tt.header)
		}
	}
}

func TestParseLegacy_Empty(t *testing.T) {
	for _, data := range []string{"", "\n", "no records here\n", Marker + "\n"} {
		if got := ParseLegacy([]byte(data)); len(got) != 0 {
			t.Errorf("ParseLegacy(%q) = %+v", data, got)
		}
	}
}

func TestParseLegacy_NoFinalLF(t *testing.T) {
	got := ParseLegacy([]byte("[2026-08-10T12:00:00Z] user: a\n[2026-08-10T12:00:01Z] user: b"))
	if len(got) != 2 || got[0].Content != "a" || got[1].Content != "b" || got[1].Line != 2 {
		t.Errorf("got %+v", got)
	}
}
