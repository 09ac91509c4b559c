package transcripttest

import (
	"os"
	"path/filepath"
	"testing"
)

// ForeignSamples returns files of every format a parser's Sniff must not
// claim, keyed by a name that says what they are: the claudecode and chatgpt
// fixtures (read from the sibling packages' testdata, so the caller must be
// a package directly under transcript/), our own JSONL, and hand-written
// samples of the Slack, Discord, Codex CLI and Gemini CLI formats and of
// plain text. A parser's tests drop their own format from the map.
func ForeignSamples(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{
		"jsonl": []byte(`{"session":"s1","provider":"openprogram","id":"m1","parent":"","role":"user","content":"hi","speaker_id":"","speaker_display":"","time":"2024-01-01T00:00:00Z","tier":"owner","group":false,"synthetic":false}` + "\n"),
		"slack/channels.json": []byte(`[
    {
        "id": "C024BE91L",
        "name": "general",
        "created": 1360782804,
        "creator": "U024BE7LH",
        "is_archived": false,
        "is_general": true,
        "members": ["U024BE7LH"],
        "topic": {"value": "Company-wide announcements", "creator": "U024BE7LH", "last_set": 1360782804},
        "purpose": {"value": "", "creator": "", "last_set": 0}
    }
]`),
		"slack/general/2024-01-02.json": []byte(`[
    {
        "type": "message",
        "user": "U024BE7LH",
        "text": "Hello <@U0G9QF9C6>, see <#C024BE91L|general>",
        "ts": "1704189600.000200",
        "thread_ts": "1704189600.000200",
        "reply_count": 1
    }
]`),
		"discord.json": []byte(`{
  "guild": {"id": "1096418361393012345", "name": "Rust Lisbon", "iconUrl": "https://cdn.discordapp.com/icons/x.png"},
  "channel": {"id": "1096418361393012346", "type": "GuildTextChat", "categoryId": "1", "category": "Text", "name": "general", "topic": null},
  "dateRange": {"after": null, "before": null},
  "exportedAt": "2024-02-03T10:00:00.000+00:00",
  "messages": [
    {"id": "1203001122334455667", "type": "Default", "timestamp": "2024-02-01T19:00:00.000+00:00", "timestampEdited": null, "isPinned": false,
     "content": "hello", "author": {"id": "2233445566778899001", "name": "joao", "discriminator": "0000", "nickname": "João", "isBot": false},
     "attachments": [], "embeds": [], "reactions": [], "mentions": []}
  ],
  "messageCount": 1
}`),
		"codex.jsonl": []byte(`{"timestamp":"2025-08-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0198a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","timestamp":"2025-08-01T10:00:00.000Z","cwd":"/home/ana/proj","originator":"codex_cli_rs","cli_version":"0.20.0"}}
{"timestamp":"2025-08-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/home/ana/proj</cwd>\n</environment_context>"}]}}
{"timestamp":"2025-08-01T10:00:02.000Z","type":"event_msg","payload":{"type":"user_message","message":"fix the test","kind":"plain"}}
`),
		"gemini.json": []byte(`{
  "sessionId": "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b",
  "projectHash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  "startTime": "2025-07-01T09:00:00.000Z",
  "lastUpdated": "2025-07-01T09:05:00.000Z",
  "messages": [
    {"id": "m1", "timestamp": "2025-07-01T09:00:00.000Z", "type": "user", "content": "explain this repo"},
    {"id": "m2", "timestamp": "2025-07-01T09:00:05.000Z", "type": "gemini", "content": "It is a CLI.", "thoughts": [], "model": "gemini-2.5-pro"}
  ]
}`),
		"gemini.jsonl": []byte(`{"sessionId":"3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b","projectHash":"9f86d0","startTime":"2025-07-01T09:00:00.000Z","kind":"main"}
{"id":"m1","timestamp":"2025-07-01T09:00:00.000Z","type":"user","content":"explain this repo"}
`),
		"notes.md":  []byte("# Trip notes\n\n- 12/07/23, 10:00 leave Lisbon\n- pack sunscreen\n"),
		"empty":     nil,
		"log.txt":   []byte("2024-01-02T10:00:00Z INFO server started\n2024-01-02T10:00:01Z INFO listening on :8080\n"),
		"utf16.txt": []byte("\xff\xfe1\x002\x00/\x003\x001\x00"),
	}
	for _, glob := range []string{"../claudecode/testdata/*.jsonl", "../chatgpt/testdata/*.json"} {
		paths, err := filepath.Glob(glob)
		if err != nil || len(paths) == 0 {
			t.Fatalf("no samples at %s: %v", glob, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[filepath.Base(filepath.Dir(filepath.Dir(p)))+"/"+filepath.Base(p)] = data
		}
	}
	return out
}
