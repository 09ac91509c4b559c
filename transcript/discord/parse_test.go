package discord

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// fixtures are the single-file exports, testdata/*.json.
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

// folder reads a fixture folder as a folder walk would hand it over.
func folder(t testing.TB, dir string) []transcript.File {
	t.Helper()
	var files []transcript.File
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		files = append(files, transcript.File{Name: filepath.ToSlash(rel), Data: data})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func parse(t testing.TB, data []byte) transcript.Result {
	t.Helper()
	res, err := Parse(bytes.NewReader(data), "export.json")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return res
}

func parseFiles(t testing.TB, files []transcript.File) transcript.Result {
	t.Helper()
	res, err := ParseFiles(files, "exports")
	if err != nil {
		t.Fatalf("ParseFiles: %v", err)
	}
	return res
}

// check is CheckDAG plus what a chat parser promises on top: ids the store
// can file, no tier, every turn from a person, replies within the session.
func check(t *testing.T, res transcript.Result) {
	t.Helper()
	transcripttest.CheckDAG(t, res)
	for i, tu := range res.Turns {
		for what, id := range map[string]string{"session": tu.Session, "id": tu.ID, "reply_to": tu.ReplyTo} {
			if p := idProblem(id); p != "" && !(what == "reply_to" && id == "") {
				t.Errorf("turn %d: %s %q %s", i, what, id, p)
			}
		}
		if tu.Tier != "" || tu.Role != transcript.RoleUser || tu.SpeakerID == "" || tu.Provider != Provider || tu.ReplyTo == tu.ID {
			t.Errorf("turn %d (%s): tier %q role %q speaker %q provider %q reply_to %q", i, tu.ID, tu.Tier, tu.Role, tu.SpeakerID, tu.Provider, tu.ReplyTo)
		}
	}
}

func TestGolden(t *testing.T) {
	for path, data := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res := parse(t, data)
			check(t, res)
			transcripttest.Golden(t, strings.TrimSuffix(path, ".json")+".golden", transcripttest.Render(res), *update)
		})
	}
	t.Run("overlap", func(t *testing.T) {
		res := parseFiles(t, folder(t, "testdata/overlap"))
		check(t, res)
		transcripttest.Golden(t, "testdata/overlap.golden", transcripttest.Render(res), *update)
	})
}

// TestDeterministic: two parses agree exactly, JSONL bytes included, and a
// folder's files may come in any order.
func TestDeterministic(t *testing.T) {
	for path, data := range fixtures(t) {
		a, b := parse(t, data), parse(t, data)
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
	files := folder(t, "testdata/overlap")
	rev := slices.Clone(files)
	slices.Reverse(rev)
	if a, b := parseFiles(t, files), parseFiles(t, rev); !reflect.DeepEqual(a, b) {
		t.Errorf("ParseFiles depends on file order:\n%s\nvs\n%s", transcripttest.Render(a), transcripttest.Render(b))
	}
}

// TestOverlap: two exports of one channel that overlap give each message
// once, with its latest edit, whichever file comes first; a message only
// the older export has is kept; every turn of the first export alone is a
// turn of both, except the edited one and the channel's new name.
func TestOverlap(t *testing.T) {
	files := folder(t, "testdata/overlap")
	var first []transcript.File
	for _, f := range files {
		if strings.HasSuffix(f.Name, "].json") {
			first = append(first, f)
		}
	}
	if len(first) != 1 {
		t.Fatalf("fixture changed: %d first exports", len(first))
	}
	before, after := parseFiles(t, first), parseFiles(t, files)
	byID := map[string]transcript.Turn{}
	for _, tu := range after.Turns {
		byID[tu.ID] = tu
	}
	edited := 0
	for _, tu := range before.Turns {
		got, ok := byID[tu.ID]
		if !ok {
			t.Errorf("turn %s lost", tu.ID)
			continue
		}
		if got.Title != "general-chat" {
			t.Errorf("turn %s: title %q, want the latest export's name", tu.ID, got.Title)
		}
		got.Title = tu.Title
		if got.Content != tu.Content {
			edited++
			if !strings.Contains(got.Content, "moved again") {
				t.Errorf("turn %s: the older edit won: %q", tu.ID, got.Content)
			}
			got.Content = tu.Content
		}
		if !reflect.DeepEqual(got, tu) {
			t.Errorf("turn %s changed:\n%+v\n->\n%+v", tu.ID, tu, got)
		}
	}
	if edited != 1 || len(after.Turns) != len(before.Turns)+2 || after.Skipped[ReasonDuplicate] != 2 {
		t.Errorf("edited %d, turns %d -> %d, skipped %v", edited, len(before.Turns), len(after.Turns), after.Skipped)
	}
}

// TestLaterEditWins: of two copies of a message the later timestampEdited
// wins, then the later exportedAt, then the file whose name sorts later.
func TestLaterEditWins(t *testing.T) {
	export := func(exported, edited, content string) []byte {
		e := "null"
		if edited != "" {
			e = `"` + edited + `"`
		}
		return []byte(`{"guild":{"id":"1"},"channel":{"id":"2","type":"GuildTextChat","name":"c"},"exportedAt":"` + exported + `","messages":[` +
			`{"id":"3","type":"Default","timestamp":"2024-01-01T00:00:00+00:00","timestampEdited":` + e + `,"content":"` + content + `","author":{"id":"4","name":"a"}}]}`)
	}
	cases := []struct {
		name       string
		a, b, want string
		aData      []byte
		bData      []byte
	}{
		{"edit beats export time", "a.json", "b.json", "edited",
			export("2024-01-01T00:00:00+00:00", "2024-01-02T00:00:00+00:00", "edited"), export("2024-02-01T00:00:00+00:00", "", "original")},
		{"later edit", "a.json", "b.json", "v3",
			export("2024-02-01T00:00:00+00:00", "2024-01-03T00:00:00+00:00", "v3"), export("2024-01-01T00:00:00+00:00", "2024-01-02T00:00:00+00:00", "v2")},
		{"later export", "b.json", "a.json", "later",
			export("2024-02-01T00:00:00+00:00", "", "later"), export("2024-01-01T00:00:00+00:00", "", "earlier")},
		{"later name", "a.json", "b.json", "from b",
			export("2024-02-01T00:00:00+00:00", "", "from a"), export("2024-02-01T00:00:00+00:00", "", "from b")},
	}
	for _, c := range cases {
		for _, order := range [][]transcript.File{
			{{Name: c.a, Data: c.aData}, {Name: c.b, Data: c.bData}},
			{{Name: c.b, Data: c.bData}, {Name: c.a, Data: c.aData}},
		} {
			res := parseFiles(t, order)
			if len(res.Turns) != 1 || res.Turns[0].Content != c.want {
				t.Errorf("%s: %s", c.name, transcripttest.Render(res))
			}
		}
	}
}

func TestErrors(t *testing.T) {
	const head = `{"guild":{"id":"1"},"channel":{"id":"2","name":"c"},"messages":[`
	cases := []struct{ name, in, want string }{
		{"empty file", ``, "f.json:1: not a JSON object (a DiscordChatExporter export): unexpected end of file"},
		{"array", `[]`, "f.json:1: not a JSON object"},
		{"no channel", `{"guild":{},"messages":[]}`, `f.json: no "channel": not a DiscordChatExporter JSON export`},
		{"no messages", `{"guild":{},"channel":{"id":"2"}}`, `f.json: no "messages"`},
		{"channel id", `{"channel":{"id":"a/b"},"messages":[]}`, `f.json:1: channel id "a/b" contains '/'`},
		{"channel id missing", `{"channel":{"name":"x"},"messages":[]}`, `f.json:1: channel id "" is empty`},
		{"channel type", `{"channel":{"id":2},"messages":[]}`, `f.json:1: id is a JSON number, want string`},
		{"messages not array", `{"channel":{"id":"2"},"messages":{}}`, `f.json:1: messages is not an array`},
		{"message id", head + "\n" + `{"type":"Default","timestamp":"2024-01-01T00:00:00Z","author":{"id":"4"}}]}`, `f.json:2: message id "" is empty`},
		{"message id spaces", head + "\n\n" + `{"id":"1 2","timestamp":"2024-01-01T00:00:00Z"}]}`, `f.json:3: message id "1 2" contains ' '`},
		{"timestamp", head + `{"id":"3","timestamp":"yesterday"}]}`, `f.json:1: message 3: timestamp "yesterday" is not an ISO 8601 time`},
		{"no zone", head + `{"id":"3","timestamp":"2024-01-01T00:00:00"}]}`, `f.json:1: message 3: timestamp "2024-01-01T00:00:00" is not an ISO 8601 time with a zone`},
		{"old", head + `{"id":"3","timestamp":"0001-01-01T00:00:00Z"}]}`, `f.json:1: message 3: timestamp "0001-01-01T00:00:00Z" is before 1970`},
		{"edited", head + `{"id":"3","timestamp":"2024-01-01T00:00:00Z","timestampEdited":"later"}]}`, `f.json:1: message 3: timestampEdited "later"`},
		{"content type", head + "\n" + `{"id":"3","timestamp":"2024-01-01T00:00:00Z","content":5}]}`, `f.json:2: content is a JSON number, want string`},
		{"bad JSON", head + "\n" + `{"id":"3",}]}`, `f.json:2: invalid JSON`},
		{"cut short", head + "\n" + `{"id":"3","timestamp":"2024-01-01T00:00:00Z"}`, `f.json:2: unexpected end of file (the export is cut short)`},
		{"trailing", `{"channel":{"id":"2"},"messages":[]} {}`, `f.json:1: unexpected data after the JSON object`},
		{"two channels", `{"channel":{"id":"2"},"messages":[],` + "\n" + `"channel":{"id":"3"}}`, `f.json:2: a second "channel"`},
		{"exportedAt", `{"channel":{"id":"2"},"exportedAt":"soon","messages":[]}`, `f.json:1: exportedAt "soon" is not an RFC 3339 time`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "f.json")
			var te *transcript.Error
			if !errors.As(err, &te) || te.File != "f.json" {
				t.Fatalf("err = %v, want a *transcript.Error", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("err = %q, want prefix %q", err, c.want)
			}
		})
	}
	_, err := ParseFiles([]transcript.File{{Name: "a.png", Data: []byte("\x89PNG")}, {Name: "b.html", Data: []byte("<html>")}}, "dir")
	if err == nil || err.Error() != "dir: none of the 2 files is a DiscordChatExporter JSON export" {
		t.Errorf("ParseFiles(no exports) = %v", err)
	}
	_, err = ParseFiles([]transcript.File{{Name: "a.json", Data: []byte(head + "\n{")}}, "dir")
	if err == nil || !strings.HasPrefix(err.Error(), "dir/a.json:2: ") {
		t.Errorf("ParseFiles(cut short) = %v", err)
	}
}

// TestSeveralChannels: a folder of exports of different channels gives one
// session per channel, a thread apart from its parent channel, each
// chained on its own.
func TestSeveralChannels(t *testing.T) {
	fx := fixtures(t)
	var files []transcript.File
	for _, name := range []string{"general", "thread", "dm"} {
		files = append(files, transcript.File{Name: name + ".json", Data: fx["testdata/"+name+".json"]})
	}
	res := parseFiles(t, files)
	check(t, res)
	turns := map[string]int{}
	for _, name := range []string{"general", "thread", "dm"} {
		for _, tu := range parse(t, fx["testdata/"+name+".json"]).Turns {
			turns[tu.Session]++
		}
	}
	got := map[string]int{}
	for _, tu := range res.Turns {
		got[tu.Session]++
	}
	if len(got) != 3 || !reflect.DeepEqual(got, turns) {
		t.Errorf("sessions = %v, want %v", got, turns)
	}
}
