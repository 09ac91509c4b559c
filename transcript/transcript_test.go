package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDetect(t *testing.T) {
	cc, err := os.ReadFile("claudecode/testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	gpt, err := os.ReadFile("chatgpt/testdata/conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   string
		want Format
	}{
		{"chatgpt export", string(gpt), FormatChatGPT},
		{"chatgpt prefix", string(gpt[:200]), FormatChatGPT},
		{"chatgpt minified with BOM", "\ufeff[{\"title\":\"t\",\"mapping\":{", FormatChatGPT},
		{"claude code", string(cc), FormatClaudeCode},
		{"claude code cut mid-line", string(cc[:len(cc)/3]), FormatClaudeCode},
		{"claude code summary only", `{"type":"summary","summary":"x","leafUuid":"y"}` + "\n", FormatClaudeCode},
		{"claude code CRLF", "{\"type\":\"user\",\"uuid\":\"u\",\"sessionId\":\"s\"}\r\n", FormatClaudeCode},
		{"our jsonl", `{"session":"s","provider":"p","id":"1","role":"user","content":"hi","time":"2026-01-01T00:00:00Z"}` + "\n", FormatJSONL},
		{"our jsonl after blank lines", "\n\n  " + `{"session":"s","id":"1","content":"hi"}`, FormatJSONL},
		{"empty", "", FormatUnknown},
		{"array without mapping", `[1,2,3]`, FormatUnknown},
		{"text", "hello world\nsecond line\n", FormatUnknown},
		{"other JSON objects", `{"a":1}` + "\n" + `{"b":2}` + "\n", FormatUnknown},
	}
	for _, c := range cases {
		if got := Detect([]byte(c.in)); got != c.want {
			t.Errorf("%s: Detect = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	cases := []struct {
		err  Error
		want string
	}{
		{Error{File: "s.jsonl", Line: 7, Message: "invalid JSON"}, "s.jsonl:7: invalid JSON"},
		{Error{File: "conversations.json", Record: `3 (id "abc")`, Message: "no id"}, `conversations.json: record 3 (id "abc"): no id`},
		{Error{File: "conversations.json", Message: "not an array"}, "conversations.json: not an array"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// spec is SPEC §7's field list, decoded strictly: a renamed or missing field
// in WriteJSONL's output fails here.
type spec struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Parent         string `json:"parent"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group"`
	Synthetic      bool   `json:"synthetic"`
}

func TestWriteJSONL(t *testing.T) {
	at := time.Date(2025, 8, 14, 9, 12, 7, 259e6, time.FixedZone("CEST", 2*3600))
	turns := []Turn{
		{Provider: "claude-code", Session: "s", ID: "u1", Role: RoleUser, Content: "<b>日本語</b> 🧾\r\nline\u2028sep\u2029", Time: at, Tier: TierOwner},
		{Provider: "claude-code", Session: "s", ID: "a1", Parent: "u1", Role: RoleAssistant, Content: "ok", SpeakerID: "x", SpeakerDisplay: "X", Time: at, Tier: TierOwner, Synthetic: true},
		{Provider: "telegram", Session: "channel7", ID: "3", Role: RoleUser, Content: "hi all", SpeakerID: "user9", SpeakerDisplay: "Ana", Time: at, Group: true},
	}
	var buf bytes.Buffer
	if err := WriteJSONL(&buf, turns); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("\u2028")) || bytes.Contains(buf.Bytes(), []byte(`\u003c`)) {
		t.Errorf("raw U+2028 or escaped HTML in output:\n%s", buf.Bytes())
	}
	sc := bufio.NewScanner(&buf)
	var got []spec
	for sc.Scan() {
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var s spec
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		got = append(got, s)
	}
	want := []spec{
		{Session: "s", Provider: "claude-code", ID: "u1", Role: "user", Content: turns[0].Content, Time: "2025-08-14T07:12:07.259Z", Tier: "owner"},
		{Session: "s", Provider: "claude-code", ID: "a1", Parent: "u1", Role: "assistant", Content: "ok", SpeakerID: "x", SpeakerDisplay: "X", Time: "2025-08-14T07:12:07.259Z", Tier: "owner", Synthetic: true},
		{Session: "channel7", Provider: "telegram", ID: "3", Role: "user", Content: "hi all", SpeakerID: "user9", SpeakerDisplay: "Ana", Time: "2025-08-14T07:12:07.259Z", Group: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
	}
	if err := WriteJSONL(&bytes.Buffer{}, []Turn{{ID: "z"}}); err == nil {
		t.Error("a turn without a time was written")
	}
}

func TestSkip(t *testing.T) {
	var r Result
	r.Skip("tool_use")
	r.Skip("tool_use")
	if r.Skipped["tool_use"] != 2 {
		t.Errorf("Skipped = %v", r.Skipped)
	}
}
