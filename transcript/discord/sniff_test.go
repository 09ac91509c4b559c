package discord

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// otherFormats are prefixes of files of the other formats the importer
// reads: Sniff must claim none of them.
var otherFormats = map[string]string{
	"our jsonl":      `{"session":"s1","provider":"web","id":"m1","parent":"","role":"user","content":"hi","time":"2024-01-01T00:00:00Z"}` + "\n",
	"telegram":       "{\n \"name\": \"Family\",\n \"type\": \"private_group\",\n \"id\": 4242,\n \"messages\": [\n  {\n   \"id\": 1,\n   \"type\": \"message\",\n   \"date\": \"2024-01-01T10:00:00\",\n   \"from\": \"Ana\",\n   \"from_id\": \"user1\",\n   \"text\": \"hi\"\n  }\n ]\n}\n",
	"telegram all":   "{\n \"about\": \"Here is the data you requested.\",\n \"personal_information\": {\"user_id\": 1},\n \"chats\": {\"list\": []}\n}\n",
	"slack day":      `[{"type":"message","user":"U1","ts":"1700000000.000100","text":"hi"}]`,
	"whatsapp":       "12/31/23, 9:15 PM - Ana: hi\n",
	"codex":          `{"timestamp":"2025-09-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0199","cwd":"/home/ana/src"}}` + "\n",
	"gemini":         `{"sessionId":"abc","projectHash":"f00","startTime":"2025-09-01T10:00:00.000Z","messages":[]}`,
	"guild string":   `{"guild":"Makers","channel":"general","messages":[]}`,
	"messages first": `{"messages":[],"guild":{"id":"1"},"channel":{"id":"2"}}`,
	"guild only":     `{"guild":{"id":"1"},"messages":[]}`,
	"html export":    "<!DOCTYPE html>\n<html lang=\"en\">",
	"csv export":     "AuthorID,Author,Date,Content,Attachments,Reactions\n",
	"empty":          ``,
}

func TestSniff(t *testing.T) {
	for path, data := range fixtures(t) {
		if !Sniff(data) {
			t.Errorf("%s: Sniff = false", path)
		}
	}
	for _, f := range folder(t, "testdata/overlap") {
		if got, want := Sniff(f.Data), strings.HasSuffix(f.Name, ".json"); got != want {
			t.Errorf("overlap/%s: Sniff = %v, want %v", f.Name, got, want)
		}
	}
	for name, data := range otherFormats {
		if Sniff([]byte(data)) {
			t.Errorf("Sniff claims %s", name)
		}
	}
	// Every other package's fixtures, Slack export folders included.
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "/testdata/") || strings.HasPrefix(p, "../discord/") || strings.HasSuffix(p, ".golden") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if Sniff(data[:min(len(data), sniffBytes)]) {
			t.Errorf("Sniff claims %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSniff_Prefix: a prefix is recognised once it holds the guild and the
// channel objects, and never before.
func TestSniff_Prefix(t *testing.T) {
	data, err := os.ReadFile("testdata/general.json")
	if err != nil {
		t.Fatal(err)
	}
	channelEnd := strings.Index(string(data), `"dateRange"`)
	for n := 0; n <= len(data); n += 5 {
		got := Sniff(data[:n])
		if n >= channelEnd && !got {
			t.Fatalf("prefix of %d bytes not recognised", n)
		}
		if n < channelEnd-10 && got {
			t.Fatalf("prefix of %d bytes recognised before the channel ends", n)
		}
	}
}
