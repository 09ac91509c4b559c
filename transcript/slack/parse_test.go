package slack

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

// exports lists the fixture exports: every folder under testdata is one
// export, as a folder walk or an unzip would hand it over.
func exports(t testing.TB) map[string][]transcript.File {
	t.Helper()
	dirs, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]transcript.File{}
	for _, dir := range dirs {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() || filepath.Base(dir) == "fuzz" {
			continue
		}
		out[filepath.Base(dir)] = readExport(t, dir)
	}
	if len(out) == 0 {
		t.Fatal("no fixture exports")
	}
	return out
}

func readExport(t testing.TB, dir string) []transcript.File {
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

func parse(t testing.TB, files []transcript.File) transcript.Result {
	t.Helper()
	res, err := ParseFiles(files, "export.zip")
	if err != nil {
		t.Fatalf("ParseFiles: %v", err)
	}
	return res
}

// check is CheckDAG plus what a chat parser promises on top: ids the store
// can file, no tier (the importer decides it), every turn from a person.
func check(t *testing.T, res transcript.Result) {
	t.Helper()
	transcripttest.CheckDAG(t, res)
	for i, tu := range res.Turns {
		for what, id := range map[string]string{"session": tu.Session, "id": tu.ID} {
			if p := idProblem(id); p != "" {
				t.Errorf("turn %d: %s %q %s", i, what, id, p)
			}
		}
		if tu.Tier != "" || tu.Role != transcript.RoleUser || tu.SpeakerID == "" || tu.Provider != Provider {
			t.Errorf("turn %d (%s): tier %q role %q speaker %q provider %q", i, tu.ID, tu.Tier, tu.Role, tu.SpeakerID, tu.Provider)
		}
	}
}

func TestGolden(t *testing.T) {
	for name, files := range exports(t) {
		t.Run(name, func(t *testing.T) {
			res := parse(t, files)
			check(t, res)
			transcripttest.Golden(t, filepath.Join("testdata", name+".golden"), transcripttest.Render(res), *update)
		})
	}
}

// TestDeterministic: the order the caller walked the folder in changes
// nothing, and two parses encode to the same bytes.
func TestDeterministic(t *testing.T) {
	for name, files := range exports(t) {
		a := parse(t, files)
		rev := slices.Clone(files)
		slices.Reverse(rev)
		b := parse(t, rev)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: parse depends on file order:\n%s\nvs\n%s", name, transcripttest.Render(a), transcripttest.Render(b))
		}
		var ja, jb bytes.Buffer
		if err := transcript.WriteJSONL(&ja, a.Turns); err != nil {
			t.Fatal(err)
		}
		if err := transcript.WriteJSONL(&jb, parse(t, files).Turns); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
			t.Errorf("%s: two encodings differ", name)
		}
	}
}

func TestErrors(t *testing.T) {
	base := []transcript.File{
		{Name: "users.json", Data: []byte(`[{"id":"U1","name":"ana"}]`)},
		{Name: "channels.json", Data: []byte(`[{"id":"C1","name":"general"}]`)},
	}
	with := func(extra ...transcript.File) []transcript.File { return append(slices.Clone(base), extra...) }
	day := func(body string) transcript.File {
		return transcript.File{Name: "general/2024-01-02.json", Data: []byte(body)}
	}
	cases := []struct {
		name  string
		files []transcript.File
		want  string
	}{
		{"no export", []transcript.File{{Name: "general/2024-01-02.json", Data: []byte(`[]`)}},
			"x.zip: no channels.json, groups.json, mpims.json, dms.json or users.json: not a Slack export"},
		{"users only", []transcript.File{base[0]}, "x.zip: no channels.json, groups.json, mpims.json or dms.json: not a whole Slack export"},
		{"bad JSON", with(day("[\n {\"type\":\"message\",\"ts\":\"1.0\"},\n {\"ts\": }\n]")), "x.zip/general/2024-01-02.json:3: invalid JSON"},
		{"cut short", with(day("[\n {\"type\":\"message\",\"ts\":\"1.0\"")), "x.zip/general/2024-01-02.json:2: unexpected end of file"},
		{"not an array", with(day(`{"messages":[]}`)), "x.zip/general/2024-01-02.json:1: not a JSON array of messages"},
		{"no ts", with(day("[\n {\"type\":\"message\",\"user\":\"U1\",\"text\":\"hi\"}\n]")), `x.zip/general/2024-01-02.json:2: ts "" is not a Slack timestamp`},
		{"bad ts", with(day(`[{"type":"message","ts":"1700000000.12a"}]`)), `x.zip/general/2024-01-02.json:1: ts "1700000000.12a" is not a Slack timestamp`},
		{"ts range", with(day(`[{"type":"message","ts":"999999999999.0"}]`)), `ts "999999999999.0" is out of range`},
		{"bad thread_ts", with(day(`[{"type":"message","ts":"1.0","thread_ts":"x/y"}]`)), `:1: thread_ts "x/y" is not a Slack timestamp`},
		{"ts type", with(day("[\n\n {\"type\":\"message\",\"ts\":1700000000.5}]")), "x.zip/general/2024-01-02.json:3: ts is a JSON number, want string"},
		{"text type", with(day(`[{"type":"message","ts":"1.0","text":["a"]}]`)), "2024-01-02.json:1: text is a JSON array, want string"},
		{"trailing", with(day(`[] []`)), "2024-01-02.json:1: unexpected data after the array of messages"},
		{"unlisted folder", with(transcript.File{Name: "random/2024-01-02.json", Data: []byte(`[]`)}),
			`x.zip/random/2024-01-02.json: folder "random" is not listed in channels.json`},
		{"bad users", []transcript.File{{Name: "users.json", Data: []byte(`[{"id":7}]`)}, base[1]}, "x.zip/users.json:1: id is a JSON number, want string"},
		{"bad channel id", []transcript.File{{Name: "channels.json", Data: []byte(`[{"id":"C 1","name":"x"}]`)}}, `x.zip/channels.json:1: conversation id "C 1" contains ' '`},
		{"empty channel id", []transcript.File{{Name: "channels.json", Data: []byte(`[{"name":"x"}]`)}}, `x.zip/channels.json:1: conversation id "" is empty`},
		{"channel twice", with(transcript.File{Name: "groups.json", Data: []byte(`[{"id":"C1","name":"secret"}]`)}),
			`x.zip/groups.json:1: conversation C1 is listed twice, as "general" and "secret"`},
		{"name twice", with(transcript.File{Name: "groups.json", Data: []byte(`[{"id":"C2","name":"general"}]`)}),
			`x.zip/groups.json:1: two conversations are named "general"`},
		{"two roots", with(transcript.File{Name: "./channels.json", Data: []byte(`[]`)}), "x.zip/channels.json: the export holds two channels.json files"},
		{"thread session too long", []transcript.File{
			{Name: "channels.json", Data: []byte(`[{"id":"` + strings.Repeat("C", 195) + `","name":"long"}]`)},
			{Name: "long/2024-01-01.json", Data: []byte(`[{"type":"message","user":"U1","text":"hi","ts":"1.000001","thread_ts":"1.000000"}]`)}},
			"x.zip: conversation CCCC"},
		{"bad canvases", with(transcript.File{Name: "canvases.json", Data: []byte(`{}`)}), "x.zip/canvases.json:1: not a JSON array of entries"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseFiles(c.files, "x.zip")
			var te *transcript.Error
			if !errors.As(err, &te) {
				t.Fatalf("err = %v, want a *transcript.Error", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q, want %q", err, c.want)
			}
		})
	}
}

// TestGrownExport: a later export of the same workspace covers more days,
// adds replies to old threads and updates the old parents' reply counts;
// every turn of the earlier export must come out identical, so the store's
// de-duplication makes re-importing safe.
func TestGrownExport(t *testing.T) {
	old := exports(t)["acme"]
	grown := slices.Clone(old)
	for i, f := range grown {
		if f.Name == "general/2024-03-04.json" {
			// The thread parent as a later export writes it: one more reply.
			data := strings.Replace(string(f.Data), `"reply_count": 3,`, `"reply_count": 4,`, 1)
			data = strings.Replace(data, `"latest_reply": "1709629800.000200",`, `"latest_reply": "1709800000.000100",`, 1)
			if data == string(f.Data) {
				t.Fatal("fixture changed: the thread parent was not found")
			}
			grown[i].Data = []byte(data)
		}
	}
	grown = append(grown,
		transcript.File{Name: "general/2024-03-07.json", Data: []byte(`[
    {"type": "message", "text": "Friday went fine.", "user": "U05ANA1LIMA", "ts": "1709800000.000100", "thread_ts": "1709547000.000400", "parent_user_id": "U05BEN2OKAF"},
    {"type": "message", "text": "New week, new deploy.", "user": "U05BEN2OKAF", "ts": "1709800100.000200"}
]`)},
		transcript.File{Name: "D06AB12CD34/2024-03-07.json", Data: []byte(`[
    {"type": "message", "text": "Sent!", "user": "U05ANA1LIMA", "ts": "1709800200.000100", "thread_ts": "1709725000.000100"}
]`)})
	before, after := parse(t, old), parse(t, grown)
	byKey := map[string]transcript.Turn{}
	for _, tu := range after.Turns {
		byKey[tu.Session+"/"+tu.ID] = tu
	}
	for _, tu := range before.Turns {
		if got, ok := byKey[tu.Session+"/"+tu.ID]; !ok || !reflect.DeepEqual(got, tu) {
			t.Errorf("turn %s/%s changed:\n%+v\n->\n%+v", tu.Session, tu.ID, tu, got)
		}
	}
	if len(after.Turns) != len(before.Turns)+3 {
		t.Errorf("grown export has %d turns, want %d", len(after.Turns), len(before.Turns)+3)
	}
	reply := byKey["C05GENERAL1-1709547000.000400/1709800000.000100"]
	if reply.Parent != "1709629800.000200" {
		t.Errorf("new reply's parent = %q, want the thread's last turn", reply.Parent)
	}
	if dm := byKey["D06AB12CD34-1709725000.000100/1709800200.000100"]; dm.Parent != "1709725300.000200" || dm.Group {
		t.Errorf("DM thread reply = %+v", dm)
	}
}

// TestMessages covers message shapes one at a time: who a message belongs
// to and what its content is.
func TestMessages(t *testing.T) {
	users := transcript.File{Name: "users.json", Data: []byte(`[
		{"id":"U1","name":"ana","profile":{"display_name":"ana"}},
		{"id":"U2","name":"ben","real_name":"Ben"}]`)}
	channels := transcript.File{Name: "channels.json", Data: []byte(`[{"id":"C1","name":"general"}]`)}
	cases := []struct {
		name, msg       string
		speaker, text   string // "" text: no turn
		skipped         string
		session, parent string
	}{
		{"file comment by its commenter", `{"type":"message","subtype":"file_comment","user":"U1","comment":{"user":"U2","comment":"nice &amp; clean"},"file":{"name":"a.png","mimetype":"image/png"}}`,
			"U2/Ben", "nice & clean", "", "C1", ""},
		{"file comment without comment", `{"type":"message","subtype":"file_comment","file":{"name":"a.png"}}`, "", "", "no_author", "", ""},
		{"file comment, blank", `{"type":"message","subtype":"file_comment","comment":{"user":"U2","comment":" "},"file":{"name":"a.png"}}`, "", "", "empty", "", ""},
		{"legacy single file", `{"type":"message","subtype":"file_share","user":"U1","text":"","file":{"title":"Roadmap","mimetype":"application/vnd.google-apps.document"}}`,
			"U1/ana", "[file: Roadmap]", "", "C1", ""},
		{"file with no name", `{"type":"message","user":"U1","files":[{"mimetype":"image/jpeg"}]}`, "U1/ana", "[image]", "", "C1", ""},
		{"hidden file", `{"type":"message","user":"U1","files":[{"mode":"hidden_by_limit"}]}`, "", "", "hidden_file", "", ""},
		{"huddle transcript file", `{"type":"message","user":"U1","text":"notes","files":[{"filetype":"huddle_transcript"}]}`, "U1/ana", "notes", "huddle", "C1", ""},
		{"slackbot response", `{"type":"message","subtype":"slackbot_response","user":"USLACKBOT","text":"The wifi password is on the wall."}`,
			"USLACKBOT/", "The wifi password is on the wall.", "", "C1", ""},
		{"bot user without profile", `{"type":"message","user":"U9","bot_id":"B1","username":"deploybot","text":"done"}`, "U9/deploybot", "done", "", "C1", ""},
		{"bot without name", `{"type":"message","subtype":"bot_message","bot_id":"B1","text":"beep"}`, "B1/", "beep", "", "C1", ""},
		{"attachment fallback only with text", `{"type":"message","user":"U1","text":"see","attachments":[{"fallback":"preview"}]}`, "U1/ana", "see", "", "C1", ""},
		{"thread broadcast", `{"type":"message","subtype":"thread_broadcast","user":"U1","text":"also here","thread_ts":"1.000001"}`,
			"U1/ana", "also here", "", "C1-1.000001", ""},
		{"reply to itself is a parent", `{"type":"message","user":"U1","text":"top","thread_ts":"1700000000.000100"}`, "U1/ana", "top", "", "C1", ""},
		{"message_changed event", `{"type":"message","subtype":"message_changed","message":{"text":"x"}}`, "", "", "unknown_subtype", "", ""},
		{"no type", `{"user":"U1","text":"typeless"}`, "U1/ana", "typeless", "", "C1", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := strings.Replace(c.msg, "{", `{"ts":"1700000000.000100",`, 1)
			day := transcript.File{Name: "general/2024-01-01.json", Data: []byte("[" + msg + "]")}
			res, err := ParseFiles([]transcript.File{users, channels, day}, "x")
			if err != nil {
				t.Fatal(err)
			}
			if c.skipped != "" && res.Skipped[c.skipped] != 1 {
				t.Errorf("skipped = %v, want %s", res.Skipped, c.skipped)
			}
			if c.text == "" {
				if len(res.Turns) != 0 {
					t.Errorf("turns = %s", transcripttest.Render(res))
				}
				return
			}
			if len(res.Turns) != 1 {
				t.Fatalf("turns = %s", transcripttest.Render(res))
			}
			tu := res.Turns[0]
			if got := tu.SpeakerID + "/" + tu.SpeakerDisplay; got != c.speaker || tu.Content != c.text || tu.Session != c.session {
				t.Errorf("turn = %s %q in %s, want %s %q in %s", got, tu.Content, tu.Session, c.speaker, c.text, c.session)
			}
		})
	}
}

// TestDuplicates: of two copies of a ts in one day file the later edit
// wins, whatever their order, and equal edits go to the one read last; of
// two copies in different day files the earlier day's is kept, as a store
// that took it already keeps it.
func TestDuplicates(t *testing.T) {
	channels := transcript.File{Name: "channels.json", Data: []byte(`[{"id":"C1","name":"general"}]`)}
	msg := func(text, edited string) string {
		e := ""
		if edited != "" {
			e = `,"edited":{"user":"U1","ts":"` + edited + `"}`
		}
		return `{"type":"message","user":"U1","ts":"1700000000.000100","text":"` + text + `"` + e + `}`
	}
	cases := []struct{ first, second, sameDay, otherDays string }{
		{msg("old", ""), msg("new", "1700000500.000000"), "new", "old"},
		{msg("new", "1700000500.000000"), msg("old", ""), "new", "new"},
		{msg("v2", "1700000500.000000"), msg("v3", "1700000600.000000"), "v3", "v2"},
		{msg("v3", "1700000600.000000"), msg("v2", "1700000500.000000"), "v3", "v3"},
		{msg("a", ""), msg("b", ""), "b", "a"},
	}
	for _, c := range cases {
		for _, files := range [][]transcript.File{
			{channels, {Name: "general/2023-12-31.json", Data: []byte("[" + c.first + "," + c.second + "]")}},
			{channels, {Name: "general/2024-01-02.json", Data: []byte("[" + c.second + "]")},
				{Name: "general/2023-12-31.json", Data: []byte("[" + c.first + "]")}},
		} {
			want := c.sameDay
			if len(files) == 3 {
				want = c.otherDays
			}
			res := parse(t, files)
			if len(res.Turns) != 1 || res.Turns[0].Content != want || res.Skipped[ReasonDuplicate] != 1 {
				t.Errorf("%s then %s in %d files: %s", c.first, c.second, len(files)-1, transcripttest.Render(res))
			}
		}
	}
}
