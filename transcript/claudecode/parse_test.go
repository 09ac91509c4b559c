package claudecode

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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

func fixtures(t testing.TB) []string {
	t.Helper()
	paths, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return paths
}

func TestGolden(t *testing.T) {
	for _, path := range fixtures(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res := parseFile(t, path)
			transcripttest.CheckDAG(t, res)
			transcripttest.Golden(t, strings.TrimSuffix(path, ".jsonl")+".golden", transcripttest.Render(res), *update)
		})
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

// TestGrownTranscript cuts each fixture at every line end and in the middle
// of every line, as a transcript being written looks when it is read: the
// turns of the prefix must be exactly the first turns of the whole, and no
// skip count may exceed the whole's, except the truncated last line.
func TestGrownTranscript(t *testing.T) {
	for _, path := range fixtures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		whole := parseFile(t, path)
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
				t.Fatalf("%s cut at %d: %v", path, n, err)
			}
			if len(part.Turns) > len(whole.Turns) || len(part.Turns) > 0 && !reflect.DeepEqual(part.Turns, whole.Turns[:len(part.Turns)]) {
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

const (
	hdr = `"sessionId":"s1","timestamp":"2025-08-14T09:12:07.259Z"`
	u1  = `{"type":"user","uuid":"u1","parentUuid":null,` + hdr + `,"message":{"role":"user","content":"hi"}}`
	a1  = `{"type":"assistant","uuid":"a1","parentUuid":"u1",` + hdr + `,"message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hello"}]}}`
)

func TestErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"invalid JSON mid-file", u1 + "\n{\"type\":\n" + a1 + "\n", "f.jsonl:2: invalid JSON"},
		{"not an object", u1 + "\n[1,2]\n", "f.jsonl:2: line is not a JSON object"},
		{"null line", "null\n" + u1, "f.jsonl:1: line is not a JSON object"},
		{"no uuid", `{"type":"user",` + hdr + `,"message":{"content":"x"}}`, "f.jsonl:1: user line has no uuid"},
		{"no session", `{"type":"user","uuid":"u9","message":{"content":"x"}}`, "f.jsonl:1: user line u9 has no sessionId"},
		{"bad timestamp", u1 + "\n" + strings.Replace(a1, "2025-08-14T09:12:07.259Z", "14/08/2025", 1), "f.jsonl:2: assistant line a1: bad timestamp"},
		{"year zero", strings.Replace(u1, "2025-08-14", "0000-08-14", 1), "f.jsonl:1: user line u1: bad timestamp"},
		{"year zero in UTC", strings.Replace(u1, "2025-08-14T09:12:07.259Z", "0001-01-01T00:30:00+01:00", 1), "f.jsonl:1: user line u1: bad timestamp"},
		{"year 10000 in UTC", strings.Replace(u1, "2025-08-14T09:12:07.259Z", "9999-12-31T23:30:00-01:00", 1), "f.jsonl:1: user line u1: bad timestamp"},
		{"content is a number", `{"type":"user","uuid":"u2",` + hdr + `,"message":{"content":7}}`, "f.jsonl:1: user line u2: message.content must be"},
		{"message not an object", `{"type":"assistant","uuid":"a2",` + hdr + `,"message":"hi"}`, "f.jsonl:1: assistant line a2 has no message object"},
		{"invalid line then blank then line", u1 + "\n{oops\n\n" + a1, "f.jsonl:2: invalid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "f.jsonl")
			var te *transcript.Error
			if !errors.As(err, &te) || te.Line == 0 {
				t.Fatalf("err = %v, want a *transcript.Error with a line", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("err = %q, want prefix %q", err, c.want)
			}
		})
	}
}

func TestTruncatedLastLine(t *testing.T) {
	for _, tail := range []string{`{"type":"assistant","uu`, "{\"type\":\r\n\r\n  \n", `{`} {
		res, err := Parse(strings.NewReader(u1+"\n"+tail), "f.jsonl")
		if err != nil {
			t.Fatalf("tail %q: %v", tail, err)
		}
		if len(res.Turns) != 1 || res.Skipped[ReasonTruncatedLastLine] != 1 {
			t.Errorf("tail %q: %d turns, skipped %v", tail, len(res.Turns), res.Skipped)
		}
	}
}

// TestReparent: the answer after a tool round trip hangs from the person's
// question, and the next question from that answer.
func TestReparent(t *testing.T) {
	in := strings.Join([]string{
		u1,
		`{"type":"assistant","uuid":"t1","parentUuid":"u1",` + hdr + `,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"x","name":"Bash","input":{}}]}}`,
		`{"type":"user","uuid":"r1","parentUuid":"t1",` + hdr + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"ok"}]}}`,
		`{"type":"assistant","uuid":"a2","parentUuid":"r1",` + hdr + `,"message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]}}`,
		`{"type":"system","uuid":"s1","parentUuid":"a2",` + hdr + `,"subtype":"informational","content":"note"}`,
		`{"type":"user","uuid":"u2","parentUuid":"s1",` + hdr + `,"message":{"role":"user","content":"next"}}`,
	}, "\n")
	res, err := Parse(strings.NewReader(in), "f.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tu := range res.Turns {
		got = append(got, tu.ID+"<-"+tu.Parent)
	}
	if want := []string{"u1<-", "a2<-u1", "u2<-a2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("links = %v, want %v", got, want)
	}
	want := map[string]int{ReasonToolUse: 1, ReasonToolResult: 1, ReasonSystem: 1}
	if !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("skipped = %v, want %v", res.Skipped, want)
	}
}

// TestSplitMessageNotMerged: lines sharing a message.id stay separate turns,
// chained in file order (see doc.go for why).
func TestSplitMessageNotMerged(t *testing.T) {
	b := strings.Replace(strings.Replace(a1, `"a1"`, `"a1b"`, 1), `"u1"`, `"a1"`, 1)
	b = strings.Replace(b, "hello", "and more", 1)
	res, err := Parse(strings.NewReader(u1+"\n"+a1+"\n"+b+"\n"), "f.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turns) != 3 || res.Turns[2].Parent != "a1" || res.Turns[2].Content != "and more" {
		t.Errorf("turns:\n%s", transcripttest.Render(res))
	}
}
