package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func parseFile(t testing.TB, path string) transcript.Result {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Parse(bytes.NewReader(data), filepath.Base(path))
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	return res
}

// fixtures are the sessions in testdata, both forms.
func fixtures(t testing.TB) []string {
	t.Helper()
	jsonl, err := filepath.Glob("testdata/*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := filepath.Glob("testdata/*.json")
	if err != nil || len(jsonl)+len(doc) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return append(jsonl, doc...)
}

func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res := parseFile(t, path)
			transcripttest.CheckDAG(t, res)
			checkIDs(t, res)
			golden := strings.TrimSuffix(strings.TrimSuffix(path, ".jsonl"), ".json") + ".golden"
			transcripttest.Golden(t, golden, transcripttest.Render(res), *update)
		})
	}
}

// checkIDs verifies what source ids need of a session and a message id:
// they name files and sit between slashes in <provider>/<session>/<id>.
func checkIDs(t *testing.T, res transcript.Result) {
	t.Helper()
	for i, tu := range res.Turns {
		for _, id := range []string{tu.Session, tu.ID} {
			if err := checkID(id); err != nil {
				t.Errorf("turn %d: id %q %v", i, id, err)
			}
		}
	}
}

// TestDeterministic: the store de-duplicates a re-import only if every field
// comes out the same, so two parses must agree exactly, JSONL bytes included.
func TestDeterministic(t *testing.T) {
	for _, path := range fixtures(t) {
		a, b := parseFile(t, path), parseFile(t, path)
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

// rewritten lists the message ids a JSONL file writes more than once: the
// last copy's text wins, so a prefix may hold an older text for them.
func rewritten(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	seen, again := map[string]bool{}, map[string]bool{}
	for _, l := range bytes.Split(data, []byte("\n")) {
		var m struct {
			ID any `json:"id"`
		}
		if json.Unmarshal(bytes.TrimSpace(l), &m) == nil {
			if id, ok := m.ID.(string); ok {
				again[id] = seen[id]
				seen[id] = true
			}
		}
	}
	return again
}

// shape keeps what a grown session must not change in a turn: the session
// names it (title, project, kind) whenever it likes, and a rewritten
// message's text is its last copy's.
func shape(turns []transcript.Turn, again map[string]bool) []transcript.Turn {
	out := make([]transcript.Turn, len(turns))
	for i, tu := range turns {
		tu.Title, tu.Project, tu.Synthetic = "", "", false
		if again[tu.ID] {
			tu.Content = ""
		}
		out[i] = tu
	}
	return out
}

// TestGrownSession cuts each JSONL fixture at every line end and in the
// middle of every line, as a session being written looks when it is read:
// the turns of the prefix must be the first turns of the whole, and no skip
// count may exceed the whole's, except the truncated last line.
func TestGrownSession(t *testing.T) {
	paths, _ := filepath.Glob("testdata/*.jsonl")
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole, again := parseFile(t, path), rewritten(t, data)
		var cuts []int
		start := 0
		for i, c := range data {
			if c == '\n' {
				cuts = append(cuts, (start+i)/2, i, i+1)
				start = i + 1
			}
		}
		cuts = append(cuts, (start+len(data))/2)
		for _, n := range cuts {
			part, err := Parse(bytes.NewReader(data[:n]), "prefix")
			if err != nil {
				// A cut inside the first line leaves no JSONL metadata line:
				// it reads as a broken JSON document.
				if bytes.IndexByte(data[:n], '\n') < 0 {
					continue
				}
				t.Fatalf("%s cut at %d: %v", path, n, err)
			}
			if len(part.Turns) > len(whole.Turns) || !reflect.DeepEqual(shape(part.Turns, again), shape(whole.Turns[:len(part.Turns)], again)) {
				t.Fatalf("%s cut at %d: turns are not a prefix of the whole:\n%s", path, n, transcripttest.Render(part))
			}
			for r, c := range part.Skipped {
				if r != ReasonTruncatedLastLine && c > whole.Skipped[r] {
					t.Errorf("%s cut at %d: %s = %d, whole has %d", path, n, r, c, whole.Skipped[r])
				}
			}
		}
	}
}

// TestForms: the JSON document and the JSONL log the CLI migrates it to on
// resume (same session, same message ids) give the same turns, so
// importing both stores each message once.
func TestForms(t *testing.T) {
	doc := parseFile(t, "testdata/legacy.json")
	data, err := os.ReadFile("testdata/legacy.json")
	if err != nil {
		t.Fatal(err)
	}
	var conv map[string]json.RawMessage
	if err := json.Unmarshal(data, &conv); err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(conv["messages"], &msgs); err != nil {
		t.Fatal(err)
	}
	// What ChatRecordingService.initialize writes when it resumes a .json
	// session: the metadata line, every message, then its own updates.
	var b bytes.Buffer
	head := map[string]json.RawMessage{}
	for _, k := range []string{"sessionId", "projectHash", "startTime", "lastUpdated", "summary"} {
		head[k] = conv[k]
	}
	line, _ := json.Marshal(head)
	b.Write(append(line, '\n'))
	for _, m := range msgs {
		var c bytes.Buffer
		if err := json.Compact(&c, m); err != nil {
			t.Fatal(err)
		}
		b.Write(append(c.Bytes(), '\n'))
	}
	b.WriteString(`{"$set":{"sessionId":"8d4e6f0a-2b1c-4d3e-9f5a-7b6c8d0e1f2a"}}` + "\n")
	log, err := Parse(&b, "migrated.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc.Turns, log.Turns) {
		t.Errorf("the two forms differ:\n%s\nvs\n%s", transcripttest.Render(doc), transcripttest.Render(log))
	}
}

const (
	head = `{"sessionId":"s-1","projectHash":"abc","startTime":"2026-01-01T00:00:00Z","lastUpdated":"2026-01-01T00:00:00Z"}`
	u1   = `{"id":"u1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":[{"text":"hi"}]}`
	g1   = `{"id":"g1","timestamp":"2026-01-01T00:00:02Z","type":"gemini","content":"hello"}`
	u2   = `{"id":"u2","timestamp":"2026-01-01T00:00:03Z","type":"user","content":"again"}`
	g2   = `{"id":"g2","timestamp":"2026-01-01T00:00:04Z","type":"gemini","content":"sure"}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func links(res transcript.Result) []string {
	var out []string
	for _, tu := range res.Turns {
		out = append(out, tu.ID+"<-"+tu.Parent)
	}
	return out
}

// TestRewind: a $rewindTo makes a branch off the message before the one it
// names; a rewind to a message that is not a turn branches off the turn it
// hung from; one to an unknown id starts a new root.
func TestRewind(t *testing.T) {
	info := `{"id":"i1","timestamp":"2026-01-01T00:00:03Z","type":"info","content":"note"}`
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"none", lines(head, u1, g1, u2, g2), []string{"u1<-", "g1<-u1", "u2<-g1", "g2<-u2"}},
		{"to the second prompt", lines(head, u1, g1, u2, g2, `{"$rewindTo":"u2"}`, strings.ReplaceAll(u2, "u2", "u3")), []string{"u1<-", "g1<-u1", "u2<-g1", "g2<-u2", "u3<-g1"}},
		{"to the first prompt", lines(head, u1, g1, `{"$rewindTo":"u1"}`, u2), []string{"u1<-", "g1<-u1", "u2<-"}},
		{"to a notice", lines(head, u1, g1, info, g2, `{"$rewindTo":"i1"}`, u2), []string{"u1<-", "g1<-u1", "g2<-g1", "u2<-g1"}},
		{"to an unknown id", lines(head, u1, g1, `{"$rewindTo":"zz"}`, u2), []string{"u1<-", "g1<-u1", "u2<-"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Parse(strings.NewReader(c.in), "s.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			transcripttest.CheckDAG(t, res)
			if got := links(res); !reflect.DeepEqual(got, c.want) {
				t.Errorf("links = %v, want %v", got, c.want)
			}
		})
	}
}

// TestUserText: the CLI's rule for what the person typed, and displayContent
// over the expanded content.
func TestUserText(t *testing.T) {
	cases := []struct {
		content, display, want, reason string
	}{
		{`"plain"`, ``, "plain", ""},
		{`[{"text":"a"},"b",{"text":"c"}]`, ``, "abc", ""},
		{`{"text":"one part"}`, ``, "one part", ""},
		{`[{"text":"look @a.go"},{"text":"\n--- Content from referenced files ---\npackage a"}]`, `[{"text":"look @a.go"}]`, "look @a.go", ""},
		{`"x"`, `"typed"`, "typed", ""},
		{`"x"`, `""`, "x", ""},
		{`"x"`, `null`, "x", ""},
		{`"/compress"`, ``, "", ReasonCommand},
		{`"  /help"`, ``, "", ReasonCommand},
		{`[{"text":"?"}]`, ``, "", ReasonCommand},
		{`"<session_context>\nThis is the Gemini CLI."`, ``, "", ReasonContext},
		{`[{"functionResponse":{"id":"c1","name":"ls","response":{"output":"a"}}}]`, ``, "", ReasonToolResult},
		{`[{"text":"see"},{"functionResponse":{"name":"ls"}}]`, ``, "", ReasonToolResult},
		{`[{"inlineData":{"mimeType":"image/png","data":"AA=="}}]`, ``, "", ReasonAttachment},
		{`""`, ``, "", ReasonEmpty},
		{`null`, ``, "", ReasonEmpty},
	}
	for _, c := range cases {
		msg := `{"id":"u1","timestamp":"2026-01-01T00:00:01Z","type":"user","content":` + c.content
		if c.display != "" {
			msg += `,"displayContent":` + c.display
		}
		res, err := Parse(strings.NewReader(lines(head, msg+"}")), "s.jsonl")
		if err != nil {
			t.Fatalf("%s: %v", c.content, err)
		}
		got := ""
		if len(res.Turns) == 1 {
			got = res.Turns[0].Content
		}
		if got != c.want || (c.reason != "" && res.Skipped[c.reason] != 1) {
			t.Errorf("content %s display %s: text %q, skipped %v; want %q, %s", c.content, c.display, got, res.Skipped, c.want, c.reason)
		}
	}
}

// TestSession: title, project and kind come from the metadata, the latest
// value of each; the first sessionId names the session.
func TestSession(t *testing.T) {
	in := lines(strings.Replace(head, `"lastUpdated"`, `"kind":"main","lastUpdated"`, 1), u1,
		`{"$set":{"summary":"first name"}}`,
		`{"$set":{"summary":"Trip plan 🧭","directories":["/w/app","/w/lib"],"sessionId":"other"}}`, g1)
	res, err := Parse(strings.NewReader(in), "s.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tu := range res.Turns {
		if tu.Session != "s-1" || tu.Title != "Trip plan 🧭" || tu.Project != "/w/app" || tu.Synthetic {
			t.Errorf("turn %s: %+v", tu.ID, tu)
		}
	}
	// Without directories, the working directory the session context names.
	ctx := `{"id":"c0","timestamp":"2026-01-01T00:00:00Z","type":"user","content":[{"text":"<session_context>\nMy operating system is: linux\nI'm currently working in the directory: /home/u/proj\n</session_context>"}]}`
	for _, in := range []string{
		lines(head, `{"$set":{"messages":[`+ctx+`]}}`, u1),
		lines(head, ctx, u1),
		lines(head, strings.Replace(ctx, "<session_context>\n", "This is the Gemini CLI. We are setting up the context for our chat.\n", 1), u1),
	} {
		res, err := Parse(strings.NewReader(in), "s.jsonl")
		if err != nil || len(res.Turns) != 1 || res.Turns[0].Project != "/home/u/proj" || res.Skipped[ReasonUnknownType] != 0 {
			t.Errorf("%s: %v\n%s", in, err, transcripttest.Render(res))
		}
	}
	res, err = Parse(strings.NewReader(lines(strings.Replace(head, `"lastUpdated"`, `"kind":"subagent","lastUpdated"`, 1), u1)), "s.jsonl")
	if err != nil || len(res.Turns) != 1 || !res.Turns[0].Synthetic {
		t.Errorf("subagent: %v %+v", err, res)
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"invalid JSON mid-file", lines(head, `{"id":`, g1), "f.jsonl:2: invalid JSON"},
		{"not an object", lines(head, `[1]`), "f.jsonl:2: line is not a JSON object"},
		{"null line", lines(head, `null`, u1), "f.jsonl:2: line is not a JSON object"},
		{"message id with a slash", lines(head, strings.Replace(u1, `"u1"`, `"a/b"`, 1)), `f.jsonl:2: message id "a/b" contains '/'`},
		{"message id too long", lines(head, strings.Replace(u1, `"u1"`, `"`+strings.Repeat("x", 201)+`"`, 1)), `f.jsonl:2: message id "xxx`},
		{"bad timestamp", lines(head, strings.Replace(g1, "2026-01-01T00:00:02Z", "yesterday", 1)), `f.jsonl:2: message g1: bad timestamp "yesterday"`},
		{"year 0 in UTC", lines(head, strings.Replace(g1, "2026-01-01T00:00:02Z", "0001-01-01T00:30:00+01:00", 1)), `f.jsonl:2: message g1: bad timestamp`},
		{"content a number", lines(head, strings.Replace(g1, `"hello"`, `7`, 1)), "f.jsonl:2: message g1: content must be a string, a part or a list of parts"},
		{"text not a string", lines(head, strings.Replace(u1, `"text":"hi"`, `"text":1`, 1)), "f.jsonl:2: message u1: content[0]: text part without a string text"},
		{"empty sessionId", lines(strings.Replace(head, `"s-1"`, `""`, 1), u1), `f.jsonl: sessionId "" is empty`},
		{"session id with --", lines(strings.Replace(head, `"s-1"`, `"a--b"`, 1), u1), `f.jsonl: sessionId "a--b" contains "--"`},
		{"document: not a session", `{"name":"x"}`, "f.jsonl: not a Gemini CLI session"},
		{"document: a list", `[{"sessionId":"s"}]`, "f.jsonl: not a Gemini CLI session"},
		{"document: only a brace", "{\n", "f.jsonl: unexpected end of file"},
		{"log: no metadata line", lines(u1, g1), "f.jsonl: not a Gemini CLI session"},
		{"document: cut short", "{\n  \"sessionId\": \"s-1\",\n  \"messages\": [\n    " + u1 + ",\n    {\"id\":", "f.jsonl: record messages[1]: unexpected end of file"},
		{"document: bad message", "{\n  \"sessionId\": \"s-1\",\n  \"messages\": [" + strings.Replace(u1, "2026-01-01T00:00:01Z", "soon", 1) + "]}", `f.jsonl: record messages[0] (id "u1"): message u1: bad timestamp "soon"`},
		{"document: messages not a list", "{\n  \"sessionId\": \"s-1\",\n  \"messages\": {}}", "f.jsonl: record messages: messages is not a list"},
		{"document: trailing data", "{\n\"sessionId\":\"s-1\",\"messages\":[]} {}", "f.jsonl: unexpected data after the session object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "f.jsonl")
			var te *transcript.Error
			if !errors.As(err, &te) || te.File != "f.jsonl" {
				t.Fatalf("err = %v, want a *transcript.Error", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("err = %q, want prefix %q", err, c.want)
			}
		})
	}
}

func TestTruncatedLastLine(t *testing.T) {
	for _, tail := range []string{`{"id":"g9","timest`, "{\"type\":\r\n\r\n  \n", `{`} {
		res, err := Parse(strings.NewReader(lines(head, u1)+tail), "f.jsonl")
		if err != nil {
			t.Fatalf("tail %q: %v", tail, err)
		}
		if len(res.Turns) != 1 || res.Skipped[ReasonTruncatedLastLine] != 1 {
			t.Errorf("tail %q: %d turns, skipped %v", tail, len(res.Turns), res.Skipped)
		}
	}
}

// TestEmptySession: a session with its metadata and nothing said yet is
// no turns and no error, in both forms.
func TestEmptySession(t *testing.T) {
	for _, in := range []string{"", " \r\n", lines(head), "{\n  \"sessionId\": \"s-1\",\n  \"projectHash\": \"abc\",\n  \"messages\": []\n}\n"} {
		res, err := Parse(strings.NewReader(in), "f")
		if err != nil || len(res.Turns) != 0 {
			t.Errorf("%q: %v, %+v", in, err, res)
		}
	}
}

// TestReadError: a failing reader is reported with the file, and nothing
// is returned.
func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	res, err := Parse(io.MultiReader(strings.NewReader(lines(head, u1)), iotest.ErrReader(boom)), "f.jsonl")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "f.jsonl:3: read:") || res.Turns != nil {
		t.Errorf("err = %v, res = %+v", err, res)
	}
}

// TestBoundedMemory reads a 32 MiB session log from a stream, in both
// forms: the heap stays far below the file's size, because Parse holds the
// turns it returns and the line (or message) it is on.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 32 MiB twice")
	}
	big := strings.Repeat("y", 64<<10)
	const n = 32 << 20 / (64 << 10)
	msg := func(i int) string {
		if i%200 == 1 {
			return fmt.Sprintf(`{"id":"u%d","timestamp":"2026-01-01T00:00:01Z","type":"user","content":[{"text":"prompt %d"}]}`, i, i)
		}
		return fmt.Sprintf(`{"id":"g%d","timestamp":"2026-01-01T00:00:02Z","type":"gemini","content":"","toolCalls":[{"id":"c%d","name":"read_file","args":{},"result":[{"functionResponse":{"id":"c%d","name":"read_file","response":{"output":"%s"}}}],"status":"success","timestamp":"2026-01-01T00:00:02Z"}]}`, i, i, i, big)
	}
	forms := map[string]func(i int) []byte{
		"jsonl": func(i int) []byte {
			if i == 0 {
				return []byte(head + "\n")
			}
			return []byte(msg(i) + "\n")
		},
		"json": func(i int) []byte {
			switch {
			case i == 0:
				return []byte("{\n  \"sessionId\": \"s-1\",\n  \"projectHash\": \"abc\",\n  \"messages\": [\n")
			case i == n-1:
				return []byte(msg(i) + "\n  ]\n}\n")
			}
			return []byte(msg(i) + ",\n")
		},
	}
	for form, line := range forms {
		s := transcripttest.NewStreamReader(n, line)
		runtime.GC()
		res, err := Parse(s, "big."+form)
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		if want := (n + 198) / 200; len(res.Turns) != want {
			t.Errorf("%s: %d turns, want %d", form, len(res.Turns), want)
		}
		t.Logf("%s: read %d MiB, peak heap %d MiB", form, s.Bytes()>>20, s.PeakHeap>>20)
		if s.PeakHeap > 12<<20 {
			t.Errorf("%s: peak heap %d MiB while reading %d MiB: Parse holds more than the message it is on", form, s.PeakHeap>>20, s.Bytes()>>20)
		}
	}
}
