package chatgpt

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// FuzzParse: Parse never panics, and whatever it accepts is a DAG the store
// can take, and encodes.
func FuzzParse(f *testing.F) {
	for _, data := range fixtures(f) {
		f.Add(data)
	}
	f.Add([]byte(`[{"id":"c","create_time":1.5,"mapping":{"a":{"parent":"b","children":["a","a"]},"b":{"message":{"author":{"role":"user"},"content":{"content_type":"multimodal_text","parts":[null,1,{"content_type":"audio_transcription","text":"hi"}]}}}}}]`))
	f.Add([]byte(`[{"conversation_id":"c","mapping":{"x":{"parent":"x"}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(bytes.NewReader(data), "fuzz.json")
		if err != nil {
			return
		}
		transcripttest.CheckDAG(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
