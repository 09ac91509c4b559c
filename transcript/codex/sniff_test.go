package codex

import (
	"fmt"
	"os"
	"path/filepath"
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
	"nested record":       `{"type":"user","message":{"content":[{"type":"tool_use","input":{"timestamp":"t","type":"session_meta","payload":{}}}]}}` + "\n",
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
	mine := glob(t, "testdata/*.jsonl")
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
	theirs := glob(t, "../claudecode/testdata/*.jsonl", "../chatgpt/testdata/*.json", "../gemini/testdata/*.json*")
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

// TestSniff_Cut: a session_meta line cut anywhere after its payload opens
// is a rollout; cut before, it is not yet. A legacy header, and a record
// with its keys in another order, are rollouts too.
func TestSniff_Cut(t *testing.T) {
	line := `{"timestamp":"2025-10-14T08:02:11.482Z","type":"session_meta","payload":{"id":"0199e1b2","cwd":"/p","base_instructions":{"text":"You are Codex`
	from := len(`{"timestamp":"2025-10-14T08:02:11.482Z","type":"session_meta","payload":{`)
	for n := 0; n <= len(line); n++ {
		if got := Sniff([]byte(line[:n])); got != (n >= from) {
			t.Fatalf("cut at %d: Sniff = %v", n, got)
		}
	}
	// The legacy header, and the same with its keys reordered.
	for _, s := range []string{
		`{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-07-22T10:15:03.116Z","instructions":null}` + "\n",
		`{"payload":{"id":"x"},"type":"session_meta","timestamp":"2025-10-14T08:02:11.482Z"}` + "\n",
	} {
		if !Sniff([]byte(s)) {
			t.Errorf("%s: Sniff = false", s)
		}
	}
}
