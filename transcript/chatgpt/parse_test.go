package chatgpt

import (
	"bytes"
	"encoding/json"
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

func parseBytes(t testing.TB, data []byte) transcript.Result {
	t.Helper()
	res, err := Parse(bytes.NewReader(data), "conversations.json")
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
			res := parseBytes(t, data)
			transcripttest.CheckDAG(t, res)
			transcripttest.Golden(t, strings.TrimSuffix(path, ".json")+".golden", transcripttest.Render(res), *update)
		})
	}
}

// reencode rewrites an export with Go's sorted map keys, which reorders
// every mapping: the output must not depend on the order of the keys.
func reencode(t *testing.T, data []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	for path, data := range fixtures(t) {
		a, b := parseBytes(t, data), parseBytes(t, reencode(t, data))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: parse depends on key order:\n%s\nvs\n%s", path, transcripttest.Render(a), transcripttest.Render(b))
		}
		var ja, jb bytes.Buffer
		if err := transcript.WriteJSONL(&ja, a.Turns); err != nil {
			t.Fatal(err)
		}
		if err := transcript.WriteJSONL(&jb, parseBytes(t, data).Turns); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ja.Bytes(), jb.Bytes()) {
			t.Errorf("%s: two encodings differ", path)
		}
	}
}

// TestGrownExport: a later export of the same account adds messages and
// branches; every turn of the earlier export must come out identical, so the
// store's de-duplication makes re-importing safe.
func TestGrownExport(t *testing.T) {
	data := fixtures(t)["testdata/conversations.json"]
	var convs []map[string]any
	if err := json.Unmarshal(data, &convs); err != nil {
		t.Fatal(err)
	}
	mapping := convs[0]["mapping"].(map[string]any)
	add := func(id, parent, role, text string, ts any) {
		mapping[id] = map[string]any{"id": id, "parent": parent, "children": []any{}, "message": map[string]any{
			"author": map[string]any{"role": role}, "create_time": ts,
			"content": map[string]any{"content_type": "text", "parts": []any{text}}}}
		p := mapping[parent].(map[string]any)
		p["children"] = append([]any{id}, p["children"].([]any)...) // listed first: reorders siblings
	}
	add("new-1", "aaa1b2c3-0004-4d5e-8f90-000000000004", "user", "A third take on day 2", nil)
	add("new-2", "new-1", "assistant", "Sure.", 1718000999.0)
	add("new-3", "aaa1b2c3-0017-4d5e-8f90-000000000017", "user", "Still there?", nil)
	grown, err := json.Marshal(convs)
	if err != nil {
		t.Fatal(err)
	}
	old, now := parseBytes(t, data), parseBytes(t, grown)
	byID := map[string]transcript.Turn{}
	for _, tu := range now.Turns {
		byID[tu.Session+"/"+tu.ID] = tu
	}
	for _, tu := range old.Turns {
		if got, ok := byID[tu.Session+"/"+tu.ID]; !ok || !reflect.DeepEqual(got, tu) {
			t.Errorf("turn %s changed: %+v -> %+v", tu.ID, tu, got)
		}
	}
	if len(now.Turns) != len(old.Turns)+3 {
		t.Errorf("grown export has %d turns, want %d", len(now.Turns), len(old.Turns)+3)
	}
	// new-3's parent was an empty in_progress answer: it hangs from the last
	// kept turn, and inherits its time.
	n3 := byID["6672a1f0-8e14-800c-9a3b-5c2d1e0f4a77/new-3"]
	if n3.Parent != "aaa1b2c3-0015-4d5e-8f90-000000000015" || !n3.Time.Equal(time.Unix(1718000203, 0)) {
		t.Errorf("new-3 = parent %q time %v", n3.Parent, n3.Time)
	}
}

func TestErrors(t *testing.T) {
	const (
		root = `"r":{"id":"r","message":null,"parent":null,"children":["a"]}`
		a    = `"a":{"id":"a","parent":"r","message":{"author":{"role":"user"},"create_time":1700000000,"content":{"content_type":"text","parts":["x"]}}}`
	)
	cases := []struct{ name, in, want string }{
		{"object", `{"mapping":{}}`, `f.json: not a JSON array of conversations`},
		{"empty file", ``, `f.json: not a JSON array of conversations: unexpected end of file`},
		{"no id", `[{"id":"c0","mapping":{` + root + `}},{"title":"t","mapping":{}}]`, `f.json: record 1 (id ""): conversation has no id`},
		{"parent nowhere", `[{"conversation_id":"c1","mapping":{` + a + `}}]`, `f.json: record 0 (id "c1"): mapping node "a": parent "r" is not in the mapping`},
		{"cycle", `[{"id":"c2","mapping":{"x":{"parent":"y"},"y":{"parent":"x"}}}]`, `f.json: record 0 (id "c2"): mapping node "x": the parent chain loops`},
		{"key mismatch", `[{"id":"c3","mapping":{"k":{"id":"other"}}}]`, `f.json: record 0 (id "c3"): mapping key "k" holds node id "other"`},
		{"null node", `[{"id":"c4","mapping":{"k":null}}]`, `f.json: record 0 (id "c4"): mapping node "k" is null`},
		{"bad JSON", `[{"id":"c5","mapping":{}},{"id":]`, `f.json: record 1: invalid JSON at byte`},
		{"cut short", `[{"id":"c6","mapping":{` + root + `,` + a + `}},{"id":"c7","ma`, `f.json: record 1: unexpected end of file`},
		{"trailing data", `[] []`, `f.json: unexpected data after the array`},
		{"time type", `[{"id":"c8","create_time":"yesterday","mapping":{}}]`, `f.json: record 0: cannot unmarshal string`},
		{"time range", `[{"id":"c9","mapping":{` + root + `,` + strings.Replace(a, "1700000000", "-5", 1) + `}}]`, `f.json: record 0 (id "c9"): mapping node "a": time -5 is out of range`},
		{"part type", `[{"id":"c10","mapping":{` + root + `,` + strings.Replace(a, `["x"]`, `[{"content_type":7}]`, 1) + `}}]`, `f.json: record 0 (id "c10"): mapping node "a": content.parts[0]:`},
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
}

func TestEmptyArray(t *testing.T) {
	res, err := Parse(strings.NewReader(" [ ]\n"), "f.json")
	if err != nil || len(res.Turns) != 0 || res.Skipped != nil {
		t.Errorf("Parse([]) = %+v, %v", res, err)
	}
}

// TestTitle: a conversation's title is on each of its turns; a null,
// absent or non-string title is no title, never an error.
func TestTitle(t *testing.T) {
	const a = `"a":{"id":"a","message":{"author":{"role":"user"},"create_time":1700000000,"content":{"content_type":"text","parts":["x"]}}}`
	cases := []struct{ title, want string }{
		{`,"title":"Trip \ud83d\uddfe plans"`, "Trip 🗾 plans"},
		{`,"title":null`, ""},
		{``, ""},
		{`,"title":42`, ""},
		{`,"title":""`, ""},
	}
	for _, c := range cases {
		res := parseBytes(t, []byte(`[{"id":"c1"`+c.title+`,"mapping":{`+a+`}}]`))
		if len(res.Turns) != 1 || res.Turns[0].Title != c.want {
			t.Errorf("title %s: got\n%s", c.title, transcripttest.Render(res))
		}
	}
}

// TestStream_ChunksOfConversations: Stream hands the turns over a whole
// conversation at a time once a chunk's text is reached, the same turns
// Parse returns, and an error in a later conversation after some chunks
// were handed over is still the file's error.
func TestStream_ChunksOfConversations(t *testing.T) {
	data := fixtures(t)["testdata/conversations.json"]
	want := parseBytes(t, data)
	var chunks [][]transcript.Turn
	res, err := Stream(bytes.NewReader(data), "conversations.json", 1, func(c []transcript.Turn) error {
		chunks = append(chunks, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var all []transcript.Turn
	for _, c := range chunks {
		for _, turn := range c[1:] {
			if turn.Session != c[0].Session {
				t.Errorf("a chunk spans sessions %s and %s", c[0].Session, turn.Session)
			}
		}
		all = append(all, c...)
	}
	if len(chunks) < 2 || !reflect.DeepEqual(all, want.Turns) || !reflect.DeepEqual(res.Skipped, want.Skipped) {
		t.Fatalf("%d chunks, %d turns (Parse: %d), skips %v (Parse: %v)", len(chunks), len(all), len(want.Turns), res.Skipped, want.Skipped)
	}

	var convs []json.RawMessage
	if err := json.Unmarshal(data, &convs); err != nil {
		t.Fatal(err)
	}
	bad, _ := json.Marshal(append(convs, json.RawMessage(`{"id":"late","mapping":{"a":{"parent":"nowhere"}}}`)))
	handed := 0
	_, err = Stream(bytes.NewReader(bad), "conversations.json", 1, func(c []transcript.Turn) error {
		handed += len(c)
		return nil
	})
	var te *transcript.Error
	if !errors.As(err, &te) || te.Record != `2 (id "late")` || handed != len(want.Turns) {
		t.Fatalf("late bad conversation: %v (record %v), %d turns handed over first", err, te, handed)
	}
}
