package whatsapp

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func parseBytes(t testing.TB, data []byte, opts Options) transcript.Result {
	t.Helper()
	res, err := Parse(bytes.NewReader(data), "_chat.txt", opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return res
}

func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	return out
}

func TestGolden(t *testing.T) {
	for path, data := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res := parseBytes(t, data, Options{})
			transcripttest.CheckDAG(t, res)
			transcripttest.CheckIDs(t, res)
			transcripttest.Golden(t, strings.TrimSuffix(path, ".txt")+".golden", transcripttest.Render(res), *update)
		})
	}
}

// TestDeterministic: the store de-duplicates a re-import only if every field
// comes out the same, JSONL bytes included.
func TestDeterministic(t *testing.T) {
	for path, data := range fixtures(t) {
		a, b := parseBytes(t, data, Options{}), parseBytes(t, data, Options{})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two parses differ", path)
		}
		var ja, jb bytes.Buffer
		if err := transcript.WriteJSONL(&ja, a.Turns); err != nil {
			t.Fatal(err)
		}
		if err := transcript.WriteJSONL(&jb, b.Turns); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
			t.Errorf("%s: two encodings differ", path)
		}
	}
}

// TestGrownExport: a later export of the chat has more lines at the end,
// some in the last minute of the earlier one; every turn of the earlier
// export must come out identical, so re-importing adds only the new ones.
func TestGrownExport(t *testing.T) {
	for path, data := range fixtures(t) {
		old := parseBytes(t, data, Options{})
		last := old.Turns[len(old.Turns)-1]
		// Repeat the last message's header line (same minute) with new text.
		lines := strings.SplitAfter(strings.TrimRight(string(data), "\r\n"), "\n")
		var header string
		for i := len(lines) - 1; i >= 0; i-- {
			if _, rest, ok := parseHeader([]byte(strings.TrimRight(lines[i], "\r\n"))); ok {
				header = strings.TrimSuffix(strings.TrimRight(lines[i], "\r\n"), string(rest))
				break
			}
		}
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
		}
		grown := append(bytes.Clone(data), []byte(header+last.SpeakerDisplay+": one more, same minute"+nl+header+last.SpeakerDisplay+": and another"+nl+"second line"+nl)...)
		now := parseBytes(t, grown, Options{})
		if len(now.Turns) != len(old.Turns)+2 {
			t.Fatalf("%s: grown export has %d turns, want %d:\n%s", path, len(now.Turns), len(old.Turns)+2, transcripttest.Render(now))
		}
		for i, tu := range old.Turns {
			if !reflect.DeepEqual(now.Turns[i], tu) {
				t.Errorf("%s: turn %s changed: %+v -> %+v", path, tu.ID, tu, now.Turns[i])
			}
		}
		if got := now.Turns[len(now.Turns)-1]; got.Content != "and another"+nl+"second line" || got.Parent != now.Turns[len(now.Turns)-2].ID {
			t.Errorf("%s: new turn %+v", path, got)
		}
	}
}

func TestOptions(t *testing.T) {
	data := fixtures(t)["testdata/android-fr.txt"]
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	yes := true
	res := parseBytes(t, data, Options{Location: paris, Session: "famille", Title: "Famille", Group: &yes})
	first := res.Turns[0]
	if first.Session != "famille" || first.Title != "Famille" || !first.Group {
		t.Errorf("options not applied: %+v", first)
	}
	// 21:16 in Paris in winter is 20:16 UTC; the id keeps the wall-clock time.
	if want := time.Date(2023, 12, 31, 20, 16, 0, 0, time.UTC); !first.Time.Equal(want) || first.ID != "20231231T2116-1" {
		t.Errorf("time %v id %s, want %v and 20231231T2116-1", first.Time, first.ID, want)
	}
	// Forcing month-first on a file whose days go above 12 is refused.
	_, err = Parse(bytes.NewReader(data), "chat.txt", Options{DateOrder: MonthDayYear})
	var te *transcript.Error
	if !errors.As(err, &te) || te.Line != 1 || !strings.Contains(err.Error(), "31/12/2023 is not a date in month/day/year order") {
		t.Errorf("err = %v", err)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, in string
		opts     Options
		want     string
	}{
		{"empty", "", Options{}, "chat.txt: empty file: no WhatsApp messages"},
		{"blank", "\n\r\n  \n", Options{}, "chat.txt: empty file"},
		{"not a chat", "Dear diary,\ntoday...\n", Options{}, "chat.txt:1: not a WhatsApp chat export: a line should start"},
		{"json", `{"session":"s","content":"x"}`, Options{}, "chat.txt:1: not a WhatsApp chat export"},
		{"utf16", "\xff\xfe1\x002\x00", Options{}, "chat.txt:1: the file is UTF-16 text"},
		{"latin1", "31/12/2023, 21:15 - Zoë: ok\n31/12/2023, 21:16 - Zo\xeb: caf\xe9\n", Options{}, "chat.txt:2: invalid UTF-8"},
		{"mixed orders", "13/01/2023, 10:00 - A: x\n01/13/2023, 10:00 - A: y\n", Options{}, "chat.txt: the dates mix day-first (line 1) and month-first (line 2) orders"},
		{"no such date", "31/02/2023, 10:00 - A: x\n", Options{}, "chat.txt:1: 31/02/2023 is not a date in day/month/year order"},
		{"bad order option", "31/12/2023, 10:00 - A: x\n", Options{DateOrder: "ydm"}, `chat.txt: date order "ydm" is not dmy, mdy or ymd`},
		{"bad session", "31/12/2023, 10:00 - A: x\n", Options{Session: "a/b"}, `chat.txt: session name "a/b" contains "/"`},
		{"session dashes", "31/12/2023, 10:00 - A: x\n", Options{Session: "a--b"}, `contains "--"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "chat.txt", c.opts)
			var te *transcript.Error
			if !errors.As(err, &te) || te.File != "chat.txt" {
				t.Fatalf("err = %v, want a *transcript.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q, want %q", err, c.want)
			}
		})
	}
}

func TestLongLine(t *testing.T) {
	in := "31/12/2023, 10:00 - A: " + strings.Repeat("x", maxLineBytes) + "\n"
	_, err := Parse(strings.NewReader(in), "chat.txt", Options{})
	var te *transcript.Error
	if !errors.As(err, &te) || te.Line != 1 || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("err = %v", err)
	}
}

// TestSessionSurvivesRenames: the derived session id must not change when
// the next export spells a contact or an iOS group differently.
func TestSessionSurvivesRenames(t *testing.T) {
	for path, rename := range map[string][2]string{
		"testdata/android-en-us.txt": {"Dana Whitfield", "Dana W."},
		"testdata/ios-de.txt":        {"Kletterhalle Mittwoch", "Kletterhalle Mi + Fr"},
	} {
		data := fixtures(t)[path]
		renamed := bytes.ReplaceAll(data, []byte(rename[0]), []byte(rename[1]))
		a, b := parseBytes(t, data, Options{}), parseBytes(t, renamed, Options{})
		if a.Turns[0].Session != b.Turns[0].Session {
			t.Errorf("%s: session %s became %s after renaming %q", path, a.Turns[0].Session, b.Turns[0].Session, rename[0])
		}
		if bytes.Equal(data, renamed) {
			t.Errorf("%s: nothing renamed", path)
		}
	}
	// Chats that began at different times get different sessions.
	seen := map[string]string{}
	for path, data := range fixtures(t) {
		s := parseBytes(t, data, Options{}).Turns[0].Session
		if other, dup := seen[s]; dup {
			t.Errorf("%s and %s share session %s", path, other, s)
		}
		seen[s] = path
	}
}

// TestNameWithColon: iOS writes a group's system lines under the group's
// name, which may contain ": "; the U+200E after the name tells where it ends.
func TestNameWithColon(t *testing.T) {
	in := "\u200e[01.02.24, 10:00:00] Trip: 2024: \u200eAna hat Ben hinzugefügt.\n" +
		"[01.02.24, 10:01:00] Ana: Hallo: alle zusammen\n" +
		"\u200e[01.02.24, 10:02:00] Trip: 2024: \u200eBild weggelassen\n"
	res, err := Parse(strings.NewReader(in), "chat.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turns) != 2 || res.Turns[0].Content != "Hallo: alle zusammen" || res.Turns[1].SpeakerDisplay != "Trip: 2024" || res.Skipped[ReasonJoin] != 1 {
		t.Errorf("got:\n%s", transcripttest.Render(res))
	}
}
