package codex

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
			checkIDs(t, res)
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

// untitled drops the titles: a rollout names its thread when it likes, so a
// grown rollout may title turns an earlier read left untitled (doc.go).
func untitled(turns []transcript.Turn) []transcript.Turn {
	out := make([]transcript.Turn, len(turns))
	for i, tu := range turns {
		tu.Title = ""
		out[i] = tu
	}
	return out
}

// TestGrownRollout cuts each fixture at every line end and in the middle of
// every line, as a rollout being written looks when it is read: the turns
// of the prefix must be exactly the first turns of the whole (titles
// aside), and no skip count may exceed the whole's, except the truncated
// last line and a prompt whose user_message event was not written yet.
func TestGrownRollout(t *testing.T) {
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
			if len(part.Turns) > len(whole.Turns) || !reflect.DeepEqual(untitled(part.Turns), untitled(whole.Turns[:len(part.Turns)])) {
				t.Fatalf("%s cut at %d: turns are not a prefix of the whole:\n%s", path, n, transcripttest.Render(part))
			}
			for r, c := range part.Skipped {
				if r != ReasonTruncatedLastLine && r != ReasonUnconfirmed && c > whole.Skipped[r] {
					t.Errorf("%s cut at %d: %s = %d, whole has %d", path, n, r, c, whole.Skipped[r])
				}
			}
		}
	}
}

const (
	meta  = `{"timestamp":"2025-10-01T10:00:00.000Z","type":"session_meta","payload":{"id":"s-1","timestamp":"2025-10-01T10:00:00.000Z","cwd":"/p","source":"cli"}}`
	ask   = `{"timestamp":"2025-10-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`
	asked = `{"timestamp":"2025-10-01T10:00:01.001Z","type":"event_msg","payload":{"type":"user_message","message":"hi"}}`
	reply = `{"timestamp":"2025-10-01T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"hello"}]}}`
)

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// user is a user item with text, and said its user_message event.
func user(text string) string {
	return strings.Replace(ask, `"text":"hi"`, `"text":`+quote(text), 1)
}

func said(text string) string {
	return strings.Replace(asked, `"message":"hi"`, `"message":`+quote(text), 1)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func links(res transcript.Result) []string {
	var out []string
	for _, tu := range res.Turns {
		out = append(out, tu.ID+"<-"+tu.Parent+" "+tu.Content)
	}
	return out
}

// TestPrompts: a user item is a prompt only when a user_message event of
// the rollout matches it, in either order; each event confirms one item.
func TestPrompts(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
		skip map[string]int
	}{
		{"item then event", lines(meta, ask, asked, reply), []string{"2<- hi", "4<-2 hello"}, nil},
		{"event then item", lines(meta, asked, ask, reply), []string{"3<- hi", "4<-3 hello"}, nil},
		{"no event for it", lines(meta, ask, said("bye"), user("bye"), reply), []string{"4<- bye", "5<-4 hello"}, map[string]int{ReasonUnconfirmed: 1}},
		{"event for other text", lines(meta, ask, said("bye"), reply), []string{"4<- hello"}, map[string]int{ReasonUnconfirmed: 1}},
		{"same prompt twice, two events", lines(meta, ask, asked, reply, ask, asked), []string{"2<- hi", "4<-2 hello", "5<-4 hi"}, nil},
		{"same prompt twice, one event", lines(meta, ask, asked, reply, ask), []string{"2<- hi", "4<-2 hello"}, map[string]int{ReasonUnconfirmed: 1}},
		{"event confirms the earliest waiting copy", lines(meta, ask, ask, asked), []string{"2<- hi"}, map[string]int{ReasonUnconfirmed: 1}},
		{"a later match drops earlier waiting items", lines(meta, user("<ide_context>x</ide_context>"), ask, asked), []string{"3<- hi"}, map[string]int{ReasonUnconfirmed: 1}},
		{"no user_message event in the whole rollout", lines(meta, ask, reply, user("<turn_aborted>x</turn_aborted>"), user("more")), []string{"2<- hi", "3<-2 hello", "5<-3 more"}, map[string]int{ReasonBoilerplate: 1}},
		{"boilerplate even with an event", lines(meta, user("<environment_context>\n  <cwd>/q</cwd>\n</environment_context>"), said("<environment_context>\n  <cwd>/q</cwd>\n</environment_context>")), nil, map[string]int{ReasonBoilerplate: 1}},
		{"AGENTS.md in any case and after blanks", lines(meta, user("\n  # Agents.MD instructions for /p\n\n<INSTRUCTIONS>x</INSTRUCTIONS>")), nil, map[string]int{ReasonBoilerplate: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Parse(strings.NewReader(c.in), "r.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if got := links(res); !reflect.DeepEqual(got, c.want) {
				t.Errorf("turns = %q, want %q", got, c.want)
			}
			for r, n := range c.skip {
				if res.Skipped[r] != n {
					t.Errorf("skipped[%s] = %d, want %d (all: %v)", r, res.Skipped[r], n, res.Skipped)
				}
			}
			for _, r := range []string{ReasonUnconfirmed, ReasonBoilerplate} {
				if c.skip[r] == 0 && res.Skipped[r] != 0 {
					t.Errorf("skipped[%s] = %d, want 0", r, res.Skipped[r])
				}
			}
		})
	}
}

// TestImagePrompt: the <image> tags around a pasted image are not in the
// user_message event; the text still matches, and the image is counted.
func TestImagePrompt(t *testing.T) {
	item := strings.Replace(ask, `[{"type":"input_text","text":"hi"}]`,
		`[{"type":"input_text","text":"<image name=[Image #1]>"},{"type":"input_image","image_url":"data:image/png;base64,AAAA"},{"type":"input_text","text":"</image>"},{"type":"input_text","text":"what is "},{"type":"input_text","text":"this?"}]`, 1)
	res, err := Parse(strings.NewReader(lines(meta, item, said("what is this?"))), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if got := links(res); !reflect.DeepEqual(got, []string{"2<- what is this?"}) || res.Skipped[ReasonImage] != 1 {
		t.Errorf("turns = %q, skipped = %v", got, res.Skipped)
	}
	// An image alone is no turn, and counted once.
	only := strings.Replace(ask, `[{"type":"input_text","text":"hi"}]`, `[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}]`, 1)
	res, err = Parse(strings.NewReader(lines(meta, only)), "r.jsonl")
	if err != nil || len(res.Turns) != 0 || res.Skipped[ReasonImage] != 1 || res.Skipped[ReasonEmpty] != 0 {
		t.Errorf("image only: %v, %v", err, res)
	}
}

// TestProjectAndSession: the session is the first session_meta's id, the
// project the latest cwd before the turn (session_meta, turn_context, the
// environment context), and a sub-agent's turns are synthetic.
func TestProjectAndSession(t *testing.T) {
	ctx := `{"timestamp":"2025-10-01T10:00:03.000Z","type":"turn_context","payload":{"cwd":"/elsewhere","model":"m"}}`
	other := strings.Replace(strings.Replace(meta, `"s-1"`, `"parent-9"`, 1), `"/p"`, `"/parent"`, 1)
	sub := strings.Replace(meta, `"source":"cli"`, `"source":{"subagent":{"thread_spawn":{"parent_thread_id":"s-0","depth":1}}}`, 1)
	res, err := Parse(strings.NewReader(lines(meta, other, ask, asked, ctx, reply)), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Turns) != 2 || res.Turns[0].Session != "s-1" || res.Turns[0].Project != "/p" || res.Turns[1].Project != "/elsewhere" || res.Turns[0].Synthetic {
		t.Errorf("turns:\n%s", transcripttest.Render(res))
	}
	res, err = Parse(strings.NewReader(lines(sub, ask, asked, reply)), "r.jsonl")
	if err != nil || len(res.Turns) != 2 || !res.Turns[0].Synthetic || !res.Turns[1].Synthetic {
		t.Errorf("sub-agent: %v\n%s", err, transcripttest.Render(res))
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"invalid JSON mid-file", lines(meta, `{"timestamp":`, reply), "f.jsonl:2: invalid JSON"},
		{"not an object", lines(meta, `[1,2]`), "f.jsonl:2: line is not a JSON object"},
		{"null line", lines(`null`, meta), "f.jsonl:1: line is not a JSON object"},
		{"not a rollout", lines(`{"session":"s","content":"x"}`), "f.jsonl:1: not a Codex rollout"},
		{"message before session_meta", lines(reply, meta), "f.jsonl:1: assistant message before the session_meta line"},
		{"session_meta without id", lines(strings.Replace(meta, `"id":"s-1",`, ``, 1)), `f.jsonl:1: session_meta: id "" is empty`},
		{"session id with a slash", lines(strings.Replace(meta, `"s-1"`, `"a/b"`, 1)), `f.jsonl:1: session_meta: id "a/b" contains '/'`},
		{"session id with --", lines(strings.Replace(meta, `"s-1"`, `"a--b"`, 1)), `f.jsonl:1: session_meta: id "a--b" contains "--"`},
		{"session_meta payload not an object", lines(`{"timestamp":"2025-10-01T10:00:00.000Z","type":"session_meta","payload":[1]}`), "f.jsonl:1: session_meta has no payload object"},
		{"bad timestamp", lines(meta, strings.Replace(reply, "2025-10-01T10:00:02.000Z", "01/10/2025", 1)), `f.jsonl:2: assistant message: bad timestamp "01/10/2025"`},
		{"year 10000 in UTC", lines(meta, strings.Replace(reply, "2025-10-01T10:00:02.000Z", "9999-12-31T23:30:00-01:00", 1)), "f.jsonl:2: assistant message: bad timestamp"},
		{"content not a list", lines(meta, strings.Replace(reply, `"content":[`, `"content":"x","c":[`, 1)), "f.jsonl:2: assistant message: content must be a list"},
		{"text not a string", lines(meta, strings.Replace(reply, `"text":"hello"`, `"text":7`, 1)), "f.jsonl:2: assistant message: content[0]: text item without a string text"},
		{"payload not an object", lines(meta, `{"timestamp":"2025-10-01T10:00:02.000Z","type":"response_item","payload":"x"}`), "f.jsonl:2: response_item has no payload object"},
		{"legacy header with a bad time", lines(`{"id":"s-2","timestamp":"soon"}`), `f.jsonl:1: legacy session header: bad timestamp "soon"`},
		{"invalid line then blank then line", lines(meta, "{oops", "", reply), "f.jsonl:2: invalid JSON"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(c.in), "f.jsonl")
			var te *transcript.Error
			if !errors.As(err, &te) || te.Line == 0 || te.File != "f.jsonl" {
				t.Fatalf("err = %v, want a *transcript.Error with a line", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("err = %q, want prefix %q", err, c.want)
			}
		})
	}
}

func TestTruncatedLastLine(t *testing.T) {
	for _, tail := range []string{`{"timestamp":"2025-10-01T10:00:03.000Z","type":"resp`, "{\"type\":\r\n\r\n  \n", `{`} {
		res, err := Parse(strings.NewReader(lines(meta, ask, asked)+tail), "f.jsonl")
		if err != nil {
			t.Fatalf("tail %q: %v", tail, err)
		}
		if len(res.Turns) != 1 || res.Skipped[ReasonTruncatedLastLine] != 1 {
			t.Errorf("tail %q: %d turns, skipped %v", tail, len(res.Turns), res.Skipped)
		}
	}
}

// TestEmpty: an empty file, or one with only blank lines, is no turns and
// no error (a rollout Codex has created but not written to).
func TestEmpty(t *testing.T) {
	for _, in := range []string{"", "\n\n", "\r\n \t\r\n"} {
		res, err := Parse(strings.NewReader(in), "f.jsonl")
		if err != nil || len(res.Turns) != 0 || res.Skipped != nil {
			t.Errorf("%q: %v, %+v", in, err, res)
		}
	}
}

// TestReadError: a failing reader is reported with the file and line, and
// nothing is returned.
func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	res, err := Parse(io.MultiReader(strings.NewReader(lines(meta, ask, asked)), iotest.ErrReader(boom)), "f.jsonl")
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "f.jsonl:4: read:") || res.Turns != nil {
		t.Errorf("err = %v, res = %+v", err, res)
	}
}

// TestBoundedMemory reads a 32 MiB rollout of tool outputs, as a long agent
// session is, from a stream: the heap stays far below the file's size,
// because Parse holds the turns it returns and the line it is on.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 32 MiB")
	}
	output := `{"timestamp":"2025-10-01T10:00:03.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"` + strings.Repeat("x", 64<<10) + `"}}` + "\n"
	const lines = 32 << 20 / (64 << 10)
	s := transcripttest.NewStreamReader(lines, func(i int) []byte {
		switch {
		case i == 0:
			return []byte(meta + "\n")
		case i%200 == 1:
			return []byte(user(fmt.Sprintf("prompt %d", i)) + "\n" + said(fmt.Sprintf("prompt %d", i)) + "\n")
		}
		return []byte(output)
	})
	runtime.GC()
	res, err := Parse(s, "big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if want := (lines + 198) / 200; len(res.Turns) != want {
		t.Errorf("%d turns, want %d", len(res.Turns), want)
	}
	t.Logf("read %d MiB, peak heap %d MiB", s.Bytes()>>20, s.PeakHeap>>20)
	if s.PeakHeap > 12<<20 {
		t.Errorf("peak heap %d MiB while reading %d MiB: Parse holds more than the line it is on", s.PeakHeap>>20, s.Bytes()>>20)
	}
}
