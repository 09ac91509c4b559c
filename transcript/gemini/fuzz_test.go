package gemini

import (
	"bytes"
	"os"
	"strings"
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
	f.Add([]byte(lines(head, u1, g1, `{"$rewindTo":"u1"}`, u2, g2)))
	f.Add([]byte(lines(head, u1, g1, strings.Replace(g1, "hello", "hello again", 1), `{"$rewindTo":"g1"}`, `{"$rewindTo":"zz"}`, u2)))
	f.Add([]byte("{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"p\",\n  \"messages\": [" + u1 + "," + g1 + "]\n}"))
	f.Add([]byte("\xef\xbb\xbf" + head + "\r\n{"))
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
