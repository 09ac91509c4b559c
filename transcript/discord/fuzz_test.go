package discord

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
)

// FuzzParse: Parse and ParseFiles never panic, and whatever they accept is
// a DAG the store can take, with ids it can file, and encodes; Stream in
// small chunks gives Parse's turns, skips and error. The second input is a
// second export merged with the first, as overlapping exports of one
// channel are.
func FuzzParse(f *testing.F) {
	fx := fixtures(f)
	f.Add(fx["testdata/general.json"], fx["testdata/thread.json"])
	f.Add(fx["testdata/odd.json"], fx["testdata/minified.json"])
	for _, file := range folder(f, "testdata/overlap") {
		if bytes.HasSuffix([]byte(file.Name), []byte(".json")) {
			f.Add(file.Data, fx["testdata/dm.json"])
		}
	}
	f.Add([]byte(`{"guild":{},"channel":{"id":"2"},"messages":[{"id":"3","timestamp":"2024-01-01T00:00:00Z","author":{"id":"4"},"content":"<@4>","mentions":[{"id":"4","name":"x"}],"reference":{"messageId":"3"}}]}`),
		[]byte(`{"guild":{},"channel":{"id":"2"},"exportedAt":"2025-01-01T00:00:00Z","messages":[{"id":"3","type":"19","timestamp":"2024-01-01T00:00:00+14:00","timestampEdited":"2024-01-02T00:00:00Z","author":{"id":"4"},"embeds":[{"url":"u"}]}]}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		sameAsParse(t, "a.json", a)
		if res, err := Parse(bytes.NewReader(a), "a.json"); err == nil {
			check(t, res)
			if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
				t.Fatal(err)
			}
		}
		res, err := ParseFiles([]transcript.File{{Name: "a.json", Data: a}, {Name: "b.json", Data: b}}, "dir")
		if err != nil {
			return
		}
		check(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
