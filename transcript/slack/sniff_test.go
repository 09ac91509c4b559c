package slack

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// otherFormats are prefixes of files of the other formats the importer
// reads: Sniff must claim none of them.
var otherFormats = map[string]string{
	"our jsonl":   `{"session":"s1","provider":"web","id":"m1","parent":"","role":"user","content":"hi","time":"2024-01-01T00:00:00Z"}` + "\n",
	"telegram":    "{\n \"name\": \"Family\",\n \"type\": \"private_group\",\n \"id\": 4242,\n \"messages\": [\n  {\n   \"id\": 1,\n   \"type\": \"message\",\n   \"date\": \"2024-01-01T10:00:00\",\n   \"date_unixtime\": \"1704103200\",\n   \"from\": \"Ana\",\n   \"from_id\": \"user1\",\n   \"text\": \"hi\"\n  }\n ]\n}\n",
	"discord":     "{\n  \"guild\": {\n    \"id\": \"1\",\n    \"name\": \"Makers\",\n    \"iconUrl\": \"\"\n  },\n  \"channel\": {\n    \"id\": \"2\",\n    \"type\": \"GuildTextChat\",\n    \"name\": \"lasers\"\n  },\n  \"messages\": [\n    {\n      \"id\": \"3\",\n      \"type\": \"Default\",\n      \"timestamp\": \"2024-01-01T10:00:00+00:00\",\n      \"content\": \"hi\"\n    }\n  ]\n}\n",
	"whatsapp":    "[07.06.23, 20:28:13] Ana: hi\n",
	"codex":       `{"timestamp":"2025-09-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0199","cwd":"/home/ana/src","originator":"codex_cli_rs"}}` + "\n",
	"gemini":      `{"sessionId":"abc","projectHash":"f00","startTime":"2025-09-01T10:00:00.000Z","messages":[{"id":"1","timestamp":"2025-09-01T10:00:00.000Z","type":"user","content":"hi"}]}`,
	"array of ts": `[{"ts":"1700000000.000100","text":"no type"}]`,
	"wrong type":  `[{"type":"event","ts":"1700000000.000100"}]`,
	"ts number":   `[{"type":"message","ts":1700000000.5}]`,
	"ts text":     `[{"type":"message","ts":"yesterday"}]`,
	"users.json":  `[{"id":"U1","name":"ana","real_name":"Ana"}]`,
	"empty day":   `[]`,
	"empty":       ``,
	"not json":    `hello`,
}

func TestSniff(t *testing.T) {
	for name, files := range exports(t) {
		for _, f := range files {
			want := dayFile.MatchString(path.Base(f.Name)) && strings.Count(f.Name, "/") >= 1 && len(f.Data) > 10
			if got := Sniff(f.Data); got != want {
				t.Errorf("%s/%s: Sniff = %v, want %v", name, f.Name, got, want)
			}
		}
	}
	for name, data := range otherFormats {
		if Sniff([]byte(data)) {
			t.Errorf("Sniff claims %s", name)
		}
	}
	others, _ := filepath.Glob("../*/testdata/*.json*")
	for _, p := range others {
		if strings.Contains(p, "/slack/") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if Sniff(data[:min(len(data), 64<<10)]) {
			t.Errorf("Sniff claims %s", p)
		}
	}
}

// TestSniff_Prefix: a prefix cut anywhere is recognised once it holds the
// first message's type and ts, and never claimed before.
func TestSniff_Prefix(t *testing.T) {
	data, err := os.ReadFile("testdata/acme/general/2024-03-04.json")
	if err != nil {
		t.Fatal(err)
	}
	after := strings.Index(string(data), `"1709542800.000100"`) + len(`"1709542800.000100"`)
	for n := 0; n <= len(data); n += 7 {
		got := Sniff(data[:n])
		if n >= after+1 && !got { // +1: the decoder needs the byte after the string
			t.Fatalf("prefix of %d bytes not recognised", n)
		}
		if n < after && got {
			t.Fatalf("prefix of %d bytes recognised before the ts", n)
		}
	}
}

func TestSniffFiles(t *testing.T) {
	for name, files := range exports(t) {
		byName := map[string][]byte{}
		var names []string
		for _, f := range files {
			byName[f.Name] = f.Data
			names = append(names, f.Name)
		}
		if !SniffFiles(names, func(n string) []byte { return byName[n] }) {
			t.Errorf("%s: SniffFiles = false", name)
		}
	}
	other := map[string][]byte{}
	var names []string
	for name, data := range otherFormats {
		other[name] = []byte(data)
		names = append(names, name)
	}
	if SniffFiles(names, func(n string) []byte { return other[n] }) {
		t.Error("SniffFiles claims a folder of other formats")
	}
}
