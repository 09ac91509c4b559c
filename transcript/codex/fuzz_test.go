package codex

import (
	"bytes"
	"os"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// FuzzParse: Parse never panics, and whatever it accepts is a DAG the store
// can take, with ids fit for source ids, and encodes; Stream gives the same
// turns, skips or error. Sniff never panics.
func FuzzParse(f *testing.F) {
	for _, path := range fixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(lines(meta, ask, asked, reply)))
	f.Add([]byte(lines(meta, asked, ask, ask, said("hi"), reply)))
	f.Add([]byte(`{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-07-22T10:15:03.116Z"}` + "\n" + `{"record_type":"state"}` + "\n" + `{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]}`))
	f.Add([]byte("\xef\xbb\xbf" + meta + "\r\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		transcripttest.CheckStream(t, "fuzz", data, parseWhole, streamer)
		res, err := Parse(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		transcripttest.CheckDAG(t, res)
		checkIDs(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
