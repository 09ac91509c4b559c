package telegram

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
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
	res, err := Parse(bytes.NewReader(data), "result.json", opts)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return res
}

func fixtures(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.json")
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
			transcripttest.Golden(t, strings.TrimSuffix(path, ".json")+".golden", transcripttest.Render(res), *update)
		})
	}
}

// reencode rewrites an export with Go's sorted keys, which puts "messages"
// before "name" and "type", and escapes nothing the way Telegram does.
func reencode(t *testing.T, data []byte) []byte {
	t.Helper()
	dec := json.NewDecoder(newXEscapeReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeterministic: the store de-duplicates a re-import only if every field
// comes out the same; key order and whitespace must not matter.
func TestDeterministic(t *testing.T) {
	for path, data := range fixtures(t) {
		a, b := parseBytes(t, data, Options{}), parseBytes(t, reencode(t, data), Options{})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: parse depends on key order:\n%s\nvs\n%s", path, transcripttest.Render(a), transcripttest.Render(b))
		}
		var ja, jb bytes.Buffer
		if err := transcript.WriteJSONL(&ja, a.Turns); err != nil {
			t.Fatal(err)
		}
		if err := transcript.WriteJSONL(&jb, parseBytes(t, data, Options{}).Turns); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
			t.Errorf("%s: two encodings differ", path)
		}
	}
}

// TestGrownExport: a later export of the chat has more messages at the end;
// every turn of the earlier export must come out identical (ids, parents,
// sessions, content), so re-importing adds only the new ones.
func TestGrownExport(t *testing.T) {
	for path, data := range fixtures(t) {
		var doc map[string]any
		dec := json.NewDecoder(newXEscapeReader(bytes.NewReader(data)))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			t.Fatal(err)
		}
		var chats []map[string]any
		if _, ok := doc["messages"]; ok {
			chats = append(chats, doc)
		}
		for _, k := range []string{"chats", "left_chats"} {
			if l, ok := doc[k].(map[string]any); ok {
				for _, c := range l["list"].([]any) {
					chats = append(chats, c.(map[string]any))
				}
			}
		}
		for i, c := range chats {
			msgs := c["messages"].([]any)
			c["messages"] = append(msgs,
				map[string]any{"id": 900000 + i, "type": "message", "date_unixtime": "1900000000", "from": "New Person", "from_id": "user42", "text": "a new message"},
				map[string]any{"id": 900100 + i, "type": "message", "date_unixtime": "1900000060", "from": "New Person", "from_id": "user42", "reply_to_message_id": 900000 + i, "text": []any{"a ", map[string]any{"type": "bold", "text": "reply"}}},
			)
		}
		grown, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		old, now := parseBytes(t, data, Options{}), parseBytes(t, grown, Options{})
		byKey := map[string]transcript.Turn{}
		for _, tu := range now.Turns {
			byKey[tu.Session+"/"+tu.ID] = tu
		}
		for _, tu := range old.Turns {
			if got, ok := byKey[tu.Session+"/"+tu.ID]; !ok || !reflect.DeepEqual(got, tu) {
				t.Errorf("%s: turn %s/%s changed: %+v -> %+v", path, tu.Session, tu.ID, tu, got)
			}
		}
		if want := len(old.Turns) + 2*len(chats); len(now.Turns) != want {
			t.Errorf("%s: grown export has %d turns, want %d", path, len(now.Turns), want)
		}
	}
}

func TestOldExportLocation(t *testing.T) {
	data := fixtures(t)["testdata/old-2019.json"]
	lisbon, err := time.LoadLocation("Europe/Lisbon")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	utc, local := parseBytes(t, data, Options{}), parseBytes(t, data, Options{Location: lisbon})
	if len(utc.Turns) == 0 || len(utc.Turns) != len(local.Turns) {
		t.Fatalf("turns: %d vs %d", len(utc.Turns), len(local.Turns))
	}
	for i := range utc.Turns {
		// Lisbon is UTC+1 in summer: the same wall-clock time is an hour earlier in UTC.
		if d := utc.Turns[i].Time.Sub(local.Turns[i].Time); d != time.Hour {
			t.Errorf("turn %s: UTC %v, Lisbon %v", utc.Turns[i].ID, utc.Turns[i].Time, local.Turns[i].Time)
		}
	}
}

func TestErrors(t *testing.T) {
	const m1 = `{"id": 1, "type": "message", "date_unixtime": "1700000000", "from": "A", "from_id": "user1", "text": "hi"}`
	chat := func(msgs ...string) string {
		return `{"name": "c", "type": "personal_chat", "id": 77, "messages": [` + strings.Join(msgs, ",") + `]}`
	}
	cases := []struct{ name, in, want string }{
		{"empty file", ``, `f.json: not a Telegram Desktop JSON export: unexpected end of file`},
		{"array", `[{"mapping": {}}]`, `f.json: not a Telegram Desktop JSON export (result.json is one JSON object)`},
		{"other object", `{"guild": {"id": "1"}, "channel": {}}`, `f.json: no messages and no chats`},
		{"cut short", chat(m1, `{"id": 2, "type": "mess`), `f.json: record messages[1]: unexpected end of file`},
		{"bad JSON", chat(m1, `{"id": 2,, }`), `f.json: record messages[1]: invalid JSON at byte`},
		{"trailing data", chat(m1) + ` {}`, `f.json: unexpected data after the export's JSON object`},
		{"no chat id", `{"name": "c", "type": "personal_chat", "messages": [` + m1 + `]}`, `f.json: record (name "c"): chat has no id`},
		{"chat id not integer", `{"name": "c", "type": "personal_chat", "id": 1.5, "messages": []}`, `f.json: record id: chat id "1.5" is not an integer`},
		{"message id not integer", chat(strings.Replace(m1, `"id": 1`, `"id": "x1"`, 1)), `f.json: record messages[0] (id x1): id "x1" is not an integer`},
		{"message id float", chat(strings.Replace(m1, `"id": 1`, `"id": 1e3`, 1)), `f.json: record messages[0] (id 1e3): id "1e3" is not an integer`},
		{"huge id", chat(strings.Replace(m1, `"id": 1`, `"id": 123456789012345678901`, 1)), `is not a Telegram id`},
		{"no message id", chat(strings.Replace(m1, `"id": 1, `, ``, 1)), `f.json: record messages[0]: message has no id`},
		{"time type", chat(strings.Replace(m1, `"1700000000"`, `true`, 1)), `f.json: record messages[0] (id 1): date_unixtime: true is not a number`},
		{"bad time", chat(strings.Replace(m1, `"1700000000"`, `"soon"`, 1)), `f.json: record messages[0] (id 1): date_unixtime "soon" is not a time`},
		{"zero time", chat(strings.Replace(m1, `"1700000000"`, `"0"`, 1)), `f.json: record messages[0] (id 1): date_unixtime "0" is not a time`},
		{"no time", chat(strings.Replace(m1, `"date_unixtime": "1700000000", `, ``, 1)), `f.json: record messages[0] (id 1): message has no date`},
		{"bad old date", chat(strings.Replace(m1, `"date_unixtime": "1700000000"`, `"date": "31.12.2019 10:00"`, 1)), `date "31.12.2019 10:00" is not a time`},
		{"text type", chat(strings.Replace(m1, `"hi"`, `7`, 1)), `f.json: record messages[0] (id 1): text is neither a string nor a list`},
		{"entity without text", chat(strings.Replace(m1, `"hi"`, `[{"type": "bold"}]`, 1)), `text[0]: entity without text`},
		{"reply id", chat(strings.Replace(m1, `"text"`, `"reply_to_message_id": -0, "text"`, 1)), `reply_to_message_id "-0" is not a canonical integer`},
		{"chats not object", `{"about": "x", "chats": []}`, `f.json: record chats: expected an object`},
		{"list not array", `{"chats": {"about": "x", "list": {}}}`, `f.json: record chats.list: expected an array of chats`},
		{"chat in list", `{"chats": {"list": [` + chat(m1) + `, {"name": "d", "type": "bot_chat", "id": 9, "messages": [` + strings.Replace(m1, `"hi"`, `{}`, 1) + `]}]}}`,
			`f.json: record chats.list[1] (id 9) messages[0] (id 1): text is neither`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "f.json", Options{})
			var te *transcript.Error
			if !errors.As(err, &te) || te.File != "f.json" {
				t.Fatalf("err = %v, want a *transcript.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q, want %q", err, c.want)
			}
		})
	}
}

// TestXEscape: Telegram Desktop's \xHH escapes become the characters, and an
// escaped backslash before an x is left alone.
func TestXEscape(t *testing.T) {
	in := `{"name": "c", "type": "personal_chat", "id": 77, "messages": [{"id": 1, "type": "message", "date_unixtime": "1700000000", "from_id": "user1", "text": "a\x0Bb \\x41 \x1F"}]}`
	res, err := Parse(strings.NewReader(in), "f.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Turns[0].Content, "a\vb \\x41 \x1f"; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	// One byte at a time: the rewrite must not depend on read boundaries.
	var out bytes.Buffer
	r := newXEscapeReader(&oneByteReader{s: in})
	if _, err := out.ReadFrom(r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"a\u000Bb \\x41 \u001F"`) {
		t.Errorf("rewritten: %s", out.String())
	}
}

type oneByteReader struct{ s string }

func (o *oneByteReader) Read(p []byte) (int, error) {
	if o.s == "" {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = o.s[0]
	o.s = o.s[1:]
	return 1, nil
}

func TestCmpInt(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1", "2", -1}, {"10", "9", 1}, {"-1", "1", -1}, {"-10", "-9", -1}, {"5", "5", 0},
		{"-999998771", "1", -1}, {"9223372036854775807", "9223372036854775806", 1},
	}
	for _, c := range cases {
		if got := cmpInt(c.a, c.b); got != c.want {
			t.Errorf("cmpInt(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
