package claudecode

import (
	"bytes"
	"os"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// FuzzParse: Parse never panics, and whatever it accepts is a DAG the store
// can take, and encodes.
func FuzzParse(f *testing.F) {
	for _, path := range fixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(u1 + "\n" + a1))
	f.Add([]byte(`{"type":"user","uuid":"u","parentUuid":"u","sessionId":"s","timestamp":"2025-01-01T00:00:00Z","message":{"content":[{"type":"text","text":"a"},{"type":"image"}]}}`))
	f.Add([]byte("\xef\xbb\xbf{\"type\":\"system\",\"uuid\":\"b\",\"logicalParentUuid\":\"b\"}\r\n{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(bytes.NewReader(data), "fuzz.jsonl")
		if err != nil {
			return
		}
		transcripttest.CheckDAG(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
