package whatsapp

import (
	"os"
	"path/filepath"
	"testing"

	"scriptorium/transcript/internal/transcripttest"
)

func TestSniff(t *testing.T) {
	type tc struct {
		data []byte
		want bool
	}
	cases := map[string]tc{}
	for path, data := range fixtures(t) {
		cases[path] = tc{data, true}
		// A prefix that ends mid-line still says yes once the header is in.
		cases[path+" (first 40 bytes)"] = tc{data[:40], true}
	}
	for name, data := range transcripttest.ForeignSamples(t) {
		cases[name] = tc{data, false}
	}
	tg, err := filepath.Glob("../telegram/testdata/*.json")
	if err != nil || len(tg) == 0 {
		t.Fatalf("no telegram fixtures: %v", err)
	}
	for _, p := range tg {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases[p] = tc{data, false}
	}
	for in, want := range map[string]bool{
		"\xef\xbb\xbf12/31/23, 9:15 PM - Ana: hi":  true,
		"\n\r\n[07.06.23, 20:28:13] Jonas: hi":     true,
		"\u200e[07.06.23, 20:28:13] Chat: \u200ex": true,
		"12/31/23, 9:1":                         false,
		"Chat log\n12/31/23, 9:15 PM - Ana: hi": false,
		"[1, 2, 3]":                             false,
		"":                                      false,
	} {
		cases["inline "+in] = tc{[]byte(in), want}
	}
	for name, c := range cases {
		if got := Sniff(c.data); got != c.want {
			t.Errorf("Sniff(%s) = %v, want %v", name, got, c.want)
		}
	}
}
