package telegram

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/transcript/internal/transcripttest"
)

func TestSniff(t *testing.T) {
	cases := map[string]struct {
		data []byte
		want bool
	}{}
	for path, data := range fixtures(t) {
		cases[path] = struct {
			data []byte
			want bool
		}{data, true}
		// A prefix that ends mid-token still says yes.
		cases[path+" (first 400 bytes)"] = struct {
			data []byte
			want bool
		}{data[:400], true}
	}
	for name, data := range transcripttest.ForeignSamples(t) {
		cases[name] = struct {
			data []byte
			want bool
		}{data, false}
	}
	wa, err := filepath.Glob("../whatsapp/testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range wa {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases[p] = struct {
			data []byte
			want bool
		}{data, false}
	}
	extra := map[string]bool{
		`{"about": "Here is the data you requested.", "personal_information": {"user_id": 1`:             true,
		"\xef\xbb\xbf{\n \"name\": \"Pedro\",\n \"type\": \"personal_chat\",\n \"id\": 1":                true,
		`{"id": 7, "messages": [{"id": 1, "type": "message", "date": "2019-07-20T21:14:03", "from": "A"`: true,
		`{"id": 7, "messages": [{"id": 1, "type": "service", "date_un`:                                   false,
		`{"name": "c", "type": "GuildTextChat", "messages": []}`:                                         false,
		`{"type": "private_group"`:                     true,
		`{"type": "private_gr`:                         false,
		`{"text": "a\x0Bb", "type": "public_channel"}`: true,
		`[{"type": "personal_chat"}]`:                  false,
		`{`:                                            false,
	}
	for in, want := range extra {
		cases["inline "+strings.ReplaceAll(in, "\n", " ")] = struct {
			data []byte
			want bool
		}{[]byte(in), want}
	}
	for name, c := range cases {
		if got := Sniff(c.data); got != c.want {
			t.Errorf("Sniff(%s) = %v, want %v", name, got, c.want)
		}
	}
}
