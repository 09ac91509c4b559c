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
