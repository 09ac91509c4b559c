package gemini

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// others are files of the other formats, written as their tools write
// them: Sniff must not claim any of them.
var others = map[string]string{
	"our JSONL":           `{"session":"s1","provider":"x","id":"1","parent":"","role":"user","content":"hi","time":"2025-01-01T00:00:00Z"}` + "\n",
	"telegram result":     "{\n \"name\": \"Climbing crew\",\n \"type\": \"private_supergroup\",\n \"id\": 1712345678,\n \"messages\": [\n  {\n   \"id\": 1,\n   \"type\": \"service\",\n",
	"slack users.json":    "[\n    {\n        \"id\": \"U024BE7LH\",\n        \"team_id\": \"T024BE7LD\",\n        \"name\": \"spengler\",\n",
	"slack channel day":   "[\n    {\n        \"type\": \"message\",\n        \"text\": \"hi <@U024BE7LH>\",\n        \"user\": \"U024BE7LH\",\n        \"ts\": \"1700000000.000100\"\n    }\n]\n",
	"whatsapp ios":        "[07.06.23, 20:28:13] Lena: Wer kommt morgen?\n[07.06.23, 20:29:01] Tom: ich\n",
	"whatsapp android":    "12/31/23, 9:15 PM - Messages and calls are end-to-end encrypted.\n12/31/23, 9:16 PM - Ana: Happy new year!\n",
	"discord export":      "{\n  \"guild\": {\n    \"id\": \"111\",\n    \"name\": \"Guild\"\n  },\n  \"channel\": {\n    \"id\": \"222\",\n    \"type\": \"GuildTextChat\"\n  },\n  \"messages\": [\n",
	"claude summary line": `{"type":"summary","summary":"Fix tide parser","leafUuid":"0f0f0f0f-0001-4000-8000-00000000c001"}` + "\n",
	"codex exec --json":   `{"type":"thread.started","thread_id":"0199e1b2-7c3a-7d41-9f0e-2a6b8c4d1e55"}` + "\n",
	"claude code line":    `{"parentUuid":null,"cwd":"/p","sessionId":"c7d3e9f1","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"2025-03-02T23:59:59.999Z"}` + "\n",
	"empty":               "",
	"blank lines":         "\n\r\n  \n",
}

// prefixes are the cuts Sniff must decide on: the whole file, the 64 KiB
// the importer reads, and a cut inside the first line.
func prefixes(data []byte) map[string][]byte {
	out := map[string][]byte{"whole": data}
	for _, n := range []int{64 << 10, 120} {
		if len(data) > n {
			out[fmt.Sprintf("first %d bytes", n)] = data[:n]
		}
	}
	return out
}

func glob(t *testing.T, patterns ...string) []string {
	t.Helper()
	var out []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m...)
	}
	return out
}

func TestSniff(t *testing.T) {
	mine := glob(t, "testdata/*.jsonl", "testdata/*.json")
	if len(mine) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range mine {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for cut, b := range prefixes(data) {
			if !Sniff(b) {
				t.Errorf("%s (%s): Sniff = false, want true", path, cut)
			}
		}
	}
	theirs := glob(t, "../claudecode/testdata/*.jsonl", "../chatgpt/testdata/*.json", "../codex/testdata/*.jsonl")
	if len(theirs) < 5 {
		t.Fatalf("only %d fixtures of other formats", len(theirs))
	}
	for _, path := range theirs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for cut, b := range prefixes(data) {
			if Sniff(b) {
				t.Errorf("%s (%s): Sniff = true, want false", path, cut)
			}
		}
	}
	for name, s := range others {
		if Sniff([]byte(s)) {
			t.Errorf("%s: Sniff = true, want false", name)
		}
	}
}

// TestSniff_Cut: the start of a session in either form, cut anywhere after
// its projectHash value opens, is a Gemini session; cut before, it is not
// yet. A line with the two keys in another order is one too.
func TestSniff_Cut(t *testing.T) {
	for _, start := range []string{
		`{"sessionId":"3f2a9c1e-5b7d-4e8f-a0c2-6d4b8e1f3a57","projectHash":"c0a4e1f27b9d3c5a","startTime":"2026-01-19T14:03:22.418Z"`,
		"{\n  \"sessionId\": \"8d4e6f0a-2b1c\",\n  \"projectHash\": \"5e1d9c3b7a2f\",\n  \"startTime\"",
	} {
		key := strings.Index(start, `"projectHash"`)
		from := key + len(`"projectHash"`) + strings.IndexByte(start[key+len(`"projectHash"`):], '"') + 1
		for n := 0; n <= len(start); n++ {
			if got := Sniff([]byte(start[:n])); got != (n >= from) {
				t.Fatalf("%q cut at %d: Sniff = %v", start, n, got)
			}
		}
	}
	if !Sniff([]byte(`{"projectHash":"abc","kind":"main","sessionId":"s"}` + "\n")) {
		t.Error("reordered metadata line: Sniff = false")
	}
}
